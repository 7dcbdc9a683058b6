/**
 * printyard-printer-in: a printer's status and print progress from the dashboard's live events
 * (`printer.status`, `print.progress`), for one printer or all of them.
 */

const EVENTS = { 'printer.status': 'status', 'print.progress': 'progress' };

module.exports = (RED) => {
  function PrinterInNode(config) {
    RED.nodes.createNode(this, config);
    const dashboard = RED.nodes.getNode(config.dashboard);
    if (!dashboard) {
      this.status({ fill: 'red', shape: 'ring', text: 'no dashboard configured' });
      return;
    }
    const printer = (config.printer ?? '').trim();
    const wanted = config.events === 'status' || config.events === 'progress' ? [config.events] : ['status', 'progress'];
    dashboard.listen(this, (type, payload) => {
      const kind = EVENTS[type];
      if (kind === undefined || !wanted.includes(kind)) return;
      const printerId = payload?.printer_id;
      if (printer !== '' && printerId !== printer) return;
      this.send({ topic: `printer/${printerId}/${kind}`, printer_id: printerId, event: type, payload });
    });
  }
  RED.nodes.registerType('printyard-printer-in', PrinterInNode);
};
