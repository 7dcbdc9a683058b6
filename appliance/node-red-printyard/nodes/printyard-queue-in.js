/**
 * printyard-queue-in: the queue's live events: a job added, changed or removed (`queue.update`)
 * and a copy about to start on a printer (`print.dispatched`).
 */

module.exports = (RED) => {
  function QueueInNode(config) {
    RED.nodes.createNode(this, config);
    const dashboard = RED.nodes.getNode(config.dashboard);
    if (!dashboard) {
      this.status({ fill: 'red', shape: 'ring', text: 'no dashboard configured' });
      return;
    }
    dashboard.listen(this, (type, payload) => {
      if (type === 'queue.update') {
        const job = payload?.job;
        this.send({ topic: `queue/${payload?.action}`, event: type, job_id: job?.id, payload });
      } else if (type === 'print.dispatched') {
        this.send({ topic: 'queue/dispatched', event: type, job_id: payload?.job_id, printer_id: payload?.printer_id, payload });
      }
    });
  }
  RED.nodes.registerType('printyard-queue-in', QueueInNode);
};
