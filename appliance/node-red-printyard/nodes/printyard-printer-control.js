/**
 * printyard-printer-control: pause, resume or stop a printer's print
 * (`POST /api/printers/:id/control`).
 */

const ACTIONS = ['pause', 'resume', 'stop'];

module.exports = (RED) => {
  function PrinterControlNode(config) {
    RED.nodes.createNode(this, config);
    const dashboard = RED.nodes.getNode(config.dashboard);
    this.on('input', async (msg, send, done) => {
      const printer = String(msg.printer_id ?? config.printer ?? '').trim();
      const action = config.action === 'msg' || !config.action ? String(msg.payload ?? '').toLowerCase() : config.action;
      try {
        if (!dashboard) throw new Error('no dashboard configured');
        if (printer === '') throw new Error("no printer: set the node's printer id or msg.printer_id");
        if (!ACTIONS.includes(action)) throw new Error(`unknown action "${action}": use ${ACTIONS.join(', ')}`);
        await dashboard.client.request('POST', `/api/printers/${encodeURIComponent(printer)}/control`, { action });
        this.status({ fill: 'green', shape: 'dot', text: `${action} ${printer}` });
        send({ ...msg, printer_id: printer, payload: { printer_id: printer, action } });
        done();
      } catch (err) {
        this.status({ fill: 'red', shape: 'ring', text: err.message.slice(0, 60) });
        done(err);
      }
    });
  }
  RED.nodes.registerType('printyard-printer-control', PrinterControlNode);
};
