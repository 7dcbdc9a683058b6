/**
 * printyard-config: one dashboard (its URL) and the API key the nodes act with, kept as a
 * Node-RED credential (encrypted in flows_cred.json, never exported with the flow). Holds the
 * shared client and tells its nodes how the live connection is doing.
 */

const { DashboardClient } = require('../lib/client.js');

const STATES = {
  connecting: { fill: 'yellow', shape: 'ring', text: 'connecting' },
  connected: { fill: 'green', shape: 'dot', text: 'connected' },
  error: { fill: 'red', shape: 'ring', text: 'error' },
};

module.exports = (RED) => {
  function PrintyardConfigNode(config) {
    RED.nodes.createNode(this, config);
    const url = config.url || RED.settings.printyard?.dashboardUrl || 'http://127.0.0.1:3000';
    this.watchers = new Set();
    this.client = new DashboardClient({
      url,
      apiKey: this.credentials?.apiKey ?? '',
      onState: (state, detail) => {
        const status = { ...STATES[state], ...(detail ? { text: detail } : {}) };
        for (const watch of this.watchers) watch(status);
      },
    });
    /** Live events to `listener(type, payload)`, the connection's state as the node's status. */
    this.listen = (node, listener) => {
      const watch = (status) => node.status(status);
      this.watchers.add(watch);
      const unsubscribe = this.client.subscribe(listener);
      node.on('close', () => {
        this.watchers.delete(watch);
        unsubscribe();
      });
    };
    this.on('close', () => this.client.close());
  }
  RED.nodes.registerType('printyard-config', PrintyardConfigNode, { credentials: { apiKey: { type: 'password' } } });
};
