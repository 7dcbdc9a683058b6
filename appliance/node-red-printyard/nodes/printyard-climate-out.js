/**
 * printyard-climate-out: a temperature and humidity reading to a storage location
 * (`POST /api/inventory/locations/:id/climate`). The stored reading comes out with the location's
 * limit and excursion state, and the materials stored there, so a flow can act on them.
 */

function number(value) {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** `{temperature_c, humidity_pct, at?}`, also taken as `{temperature, humidity}` (as many sensors publish it). */
function reading(payload) {
  const p = typeof payload === 'string' ? JSON.parse(payload) : payload;
  const temperature = number(p?.temperature_c ?? p?.temperature);
  const humidity = number(p?.humidity_pct ?? p?.humidity);
  if (temperature === undefined || humidity === undefined) {
    throw new Error('msg.payload needs numbers temperature_c (or temperature) and humidity_pct (or humidity)');
  }
  return { temperature_c: temperature, humidity_pct: humidity, ...(typeof p.at === 'string' ? { at: p.at } : {}) };
}

module.exports = (RED) => {
  function ClimateOutNode(config) {
    RED.nodes.createNode(this, config);
    const dashboard = RED.nodes.getNode(config.dashboard);
    this.on('input', async (msg, send, done) => {
      const location = Number(msg.location_id ?? config.location);
      try {
        if (!dashboard) throw new Error('no dashboard configured');
        if (!Number.isInteger(location) || location < 1) throw new Error("no location: set the node's location id or msg.location_id");
        const body = reading(msg.payload);
        const stored = await dashboard.client.request('POST', `/api/inventory/locations/${location}/climate`, body);
        const spools = await dashboard.client.request('GET', `/api/filaments?location_id=${location}`);
        const materials = [...new Set(spools.items.map((s) => s.material))];
        const over = stored.humidity_limit_pct !== null && stored.humidity_pct > stored.humidity_limit_pct;
        this.status({ fill: over ? 'red' : 'green', shape: 'dot', text: `${stored.humidity_pct} %RH, ${stored.temperature_c} °C` });
        send({ ...msg, location_id: location, materials, payload: stored });
        done();
      } catch (err) {
        this.status({ fill: 'red', shape: 'ring', text: err.message.slice(0, 60) });
        done(err);
      }
    });
  }
  RED.nodes.registerType('printyard-climate-out', ClimateOutNode);
};
