/**
 * printyard-notify: raises a notification in the dashboard (`POST /api/notifications`): its inbox,
 * the live event, and every outgoing channel that takes the kind.
 */

const LEVELS = ['info', 'warning', 'error'];
const KIND = /^[a-z0-9._-]{1,64}$/;

module.exports = (RED) => {
  function NotifyNode(config) {
    RED.nodes.createNode(this, config);
    const dashboard = RED.nodes.getNode(config.dashboard);
    this.on('input', async (msg, send, done) => {
      const kind = String(msg.kind ?? config.kind ?? '') || 'automation';
      const level = String(msg.level ?? config.level ?? '') || 'info';
      const title = String(msg.title ?? config.title ?? '') || 'Automation';
      const message = typeof msg.payload === 'string' ? msg.payload : JSON.stringify(msg.payload ?? '');
      try {
        if (!dashboard) throw new Error('no dashboard configured');
        if (!KIND.test(kind)) throw new Error(`kind "${kind}": 1 to 64 of a-z, 0-9, dots, dashes and underscores`);
        if (!LEVELS.includes(level)) throw new Error(`level "${level}": use ${LEVELS.join(', ')}`);
        const data = msg.data !== null && typeof msg.data === 'object' ? msg.data : undefined;
        const raised = await dashboard.client.request('POST', '/api/notifications', { kind, level, title: title.slice(0, 200), message, data });
        this.status({ fill: 'green', shape: 'dot', text: title.slice(0, 40) });
        send({ ...msg, payload: raised });
        done();
      } catch (err) {
        this.status({ fill: 'red', shape: 'ring', text: err.message.slice(0, 60) });
        done(err);
      }
    });
  }
  RED.nodes.registerType('printyard-notify', NotifyNode);
};
