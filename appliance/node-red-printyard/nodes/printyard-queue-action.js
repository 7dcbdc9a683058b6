/**
 * printyard-queue-action: adds a job, runs a dispatch round, pauses or resumes the whole queue for
 * a reason (the dashboard's own pause: nothing starts while any reason pauses it, jobs added
 * meanwhile included), holds or releases jobs. Holds and releases without a job id act on the
 * jobs for a reason (lib/holds.js): a release lets go of what this reason held and nothing else.
 */

const { planHold, planRelease, recordHolds } = require('../lib/holds.js');
const { familyList } = require('../lib/materials.js');

const ACTIONS = ['add', 'dispatch', 'pause', 'resume', 'hold', 'release'];

/** The queue's pause as the node's status shows it: the reasons still pausing it, or running. */
const pauseText = (pause) => (pause.paused ? `paused: ${pause.reasons.map((r) => r.reason).join(', ')}`.slice(0, 60) : 'queue running');

module.exports = (RED) => {
  function QueueActionNode(config) {
    RED.nodes.createNode(this, config);
    const dashboard = RED.nodes.getNode(config.dashboard);
    const request = (method, path, body) => dashboard.client.request(method, path, body);
    const holdsKey = `printyard_holds_${config.dashboard}`;
    // One change of the recorded holds at a time, or two holds arriving together would lose one.
    let chain = Promise.resolve();
    const serial = (work) => {
      const run = chain.then(work, work);
      chain = run.catch(() => {});
      return run;
    };
    const global = () => this.context().global;
    const readHolds = () => new Promise((resolve, reject) => global().get(holdsKey, (err, v) => (err ? reject(err) : resolve(v ?? {}))));
    const writeHolds = (holds) => new Promise((resolve, reject) => global().set(holdsKey, holds, (err) => (err ? reject(err) : resolve())));

    async function setState(id, state) {
      try {
        await request('PUT', `/api/queue/${encodeURIComponent(id)}`, { state });
        return true;
      } catch (err) {
        // Gone, or changed by somebody meanwhile (released by hand, done): nothing left to do.
        if (err.status === 404 || err.status === 409) return false;
        throw err;
      }
    }

    async function add(msg) {
      if (!Buffer.isBuffer(msg.payload)) throw new Error('msg.payload must be the file (a Buffer) and msg.filename its name');
      const form = new FormData();
      const fields = { name: msg.name, copies: msg.copies, priority: msg.priority, held: msg.held };
      for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, String(value));
      if (msg.requirements !== undefined) form.append('requirements', JSON.stringify(msg.requirements));
      form.append('file', new Blob([msg.payload]), String(msg.filename ?? 'job.gcode'));
      return request('POST', '/api/queue', form);
    }

    const hold = (msg, reason) =>
      serial(async () => {
        if (msg.job_id) return { held: (await setState(msg.job_id, 'held')) ? [msg.job_id] : [] };
        const materials = msg.materials === undefined ? null : familyList(msg.materials);
        const { items } = await request('GET', '/api/queue');
        const holds = await readHolds();
        const { toHold, toRecord } = planHold(items, holds, reason, materials);
        const held = [];
        for (const id of toHold) if (await setState(id, 'held')) held.push(id);
        await writeHolds(recordHolds(holds, reason, [...held, ...toRecord]));
        return { reason, held };
      });

    const release = (msg, reason) =>
      serial(async () => {
        if (msg.job_id) return { released: (await setState(msg.job_id, 'queued')) ? [msg.job_id] : [] };
        const { toRelease, holds } = planRelease(await readHolds(), reason);
        const released = [];
        for (const id of toRelease) if (await setState(id, 'queued')) released.push(id);
        await writeHolds(holds);
        return { reason, released };
      });

    this.on('input', async (msg, send, done) => {
      const action = config.action === 'msg' || !config.action ? String(msg.action ?? '') : config.action;
      const reason = String(msg.reason ?? config.reason ?? '').trim() || 'automation';
      try {
        if (!dashboard) throw new Error('no dashboard configured');
        if (!ACTIONS.includes(action)) throw new Error(`unknown action "${action}": use ${ACTIONS.join(', ')}`);
        let result;
        if (action === 'add') result = await add(msg);
        else if (action === 'dispatch') result = await request('POST', '/api/queue/dispatch', {});
        else if (action === 'pause') result = await request('POST', '/api/queue/pause', { reason });
        else if (action === 'resume') result = await request('POST', '/api/queue/resume', { reason });
        else if (action === 'hold') result = await hold(msg, reason);
        else result = await release(msg, reason);
        const count = result.held?.length ?? result.released?.length ?? result.dispatched?.length;
        if (result.paused !== undefined) this.status({ fill: result.paused ? 'yellow' : 'green', shape: 'dot', text: pauseText(result) });
        else this.status({ fill: 'green', shape: 'dot', text: count === undefined ? action : `${action}: ${count}` });
        send({ ...msg, payload: result });
        done();
      } catch (err) {
        this.status({ fill: 'red', shape: 'ring', text: err.message.slice(0, 60) });
        done(err);
      }
    });
  }
  RED.nodes.registerType('printyard-queue-action', QueueActionNode);
};
