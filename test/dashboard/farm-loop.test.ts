/**
 * The farm loop end to end (issue 19), over HTTP and the WebSocket, with the real drivers and the
 * virtual printers: three Bambu Lab printers with different AMS loads and two Marlin printers,
 * spools created and loaded through /api/filaments, twelve queued jobs with material and colour
 * requirements and priorities.
 *
 * 1. In this process: the plates are confirmed one printer at a time, each after its print ended,
 *    so the test knows which printer is free when each round runs and checks every claim against
 *    its own model: the first job in priority-then-position order that the printer fits (format,
 *    pin, filament). Nothing is dispatched to a printer before its plate is confirmed clear; each
 *    print lands where its filament is (the dispatched slots and spools, the AMS mapping the
 *    printer received); one history record per print with its end state (one print cancelled
 *    through the dashboard, one failed by the printer); the spools lose what the prints used.
 * 2. A dashboard in a child process (farm-loop-child.ts) on the same printers, killed with SIGKILL
 *    while two copies print and one is being dispatched, restarted on its data dir: no job lost,
 *    doubled or dispatched twice (the printers' own starts counted), no record doubled, the
 *    spools booked once.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gramsOf } from '../../appliance/dashboard/history/filament.js';
import { DriverRegistry } from '../../appliance/dashboard/printers/driver-registry.js';
import { bambuLanDriverFactory } from '../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import { marlinSerialDriverFactory } from '../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { historyFeature, inventoryFeature, liveFeature, printersFeature, queueFeature } from '../../appliance/dashboard/features.js';
import { startDashboardFixture, testAuthenticator, type DashboardFixture } from '../fixtures/dashboard.js';
import { eventually } from '../fixtures/eventually.js';
import {
  api,
  densityOf,
  fits,
  labelOf,
  LOADS,
  MARLIN_EXTRUDED_MM,
  PRINTER_NAMES,
  queueJob,
  setUpPrinters,
  startFarm,
  TEST_TOKENS,
  type Api,
  type Farm,
  type FarmPrinters,
  type JobSpec,
  type PrinterName,
} from './farm-loop-farm.js';
import { restartPart } from './farm-loop-restart.js';
import { FarmWatch } from './farm-loop-watch.js';

const WHITE = { material: 'PLA', color: '#FFFFFF' };
const PETG_BLACK = { material: 'PETG', color: '#000000' };

/** The twelve jobs, in the order they are posted. ASA is posted last but at position 1: it goes before the PETG of its priority. */
const JOBS: JobSpec[] = [
  { key: 'red', kind: 'bambu', filaments: [{ material: 'PLA', color: '#FF0000', grams: 6.5 }], priority: 5, copies: 1 },
  { key: 'white-3mf', kind: 'bambu', filaments: [{ ...WHITE, grams: 4.25 }], priority: 3, copies: 2 },
  { key: 'blue', kind: 'bambu', filaments: [{ material: 'PLA', color: '#0000FF', grams: 8 }], priority: 3, copies: 1 },
  { key: 'petg-cancelled', kind: 'bambu', filaments: [{ ...PETG_BLACK, grams: 30 }], priority: 1, copies: 1, minutes: 30, layers: 10 },
  {
    key: 'two-colour',
    kind: 'bambu',
    filaments: [
      { ...WHITE, grams: 3 },
      { ...PETG_BLACK, grams: 2.5 },
    ],
    priority: 0,
    copies: 1,
  },
  { key: 'white-gcode', kind: 'marlin', filaments: [{ ...WHITE, grams: 0 }], priority: 2, copies: 1 },
  { key: 'black-gcode', kind: 'marlin', filaments: [{ ...PETG_BLACK, grams: 0 }], priority: 2, copies: 1 },
  { key: 'white-gcode-2', kind: 'marlin', filaments: [{ ...WHITE, grams: 0 }], priority: 0, copies: 2 },
  { key: 'petg-gcode', kind: 'marlin', filaments: [{ ...PETG_BLACK, grams: 0 }], priority: -1, copies: 1 },
  { key: 'pinned-white', kind: 'bambu', filaments: [{ ...WHITE, grams: 5 }], priority: 4, copies: 1, pinned: 'B2' },
  { key: 'tpu', kind: 'bambu', filaments: [{ material: 'TPU', color: '#000000', grams: 5 }], priority: 0, copies: 1 },
  {
    key: 'asa-failed',
    kind: 'bambu',
    filaments: [{ material: 'ASA', color: '#808080', grams: 20 }],
    priority: 1,
    copies: 1,
    position: 1,
    minutes: 30,
    layers: 10,
  },
];
const CANCELLED = 'petg-cancelled';
const FAILED = 'asa-failed';
/** How the prints that do not finish end, and the jobs that are not done at the end. */
const END_STATES: Record<string, string> = { [CANCELLED]: 'cancelled', [FAILED]: 'failed' };
const JOB_STATES: Record<string, string> = { [CANCELLED]: 'failed', [FAILED]: 'failed', tpu: 'queued' };
/** Bambu "unable to parse the file": a failure of the printer's own, not a cancel. */
const PRINTER_FAILURE = 0x05004003;

let farm: Farm;
let dash: DashboardFixture;

before(async () => {
  farm = await startFarm();
});

after(async () => {
  await dash?.cleanup();
  await farm?.stop();
});

/** Dispatch order: priority (higher first), then queue position (POST order; a `position` puts the job there). */
function rankOrder(): JobSpec[] {
  const positions: JobSpec[] = [];
  for (const spec of JOBS) positions.splice(spec.position === undefined ? positions.length : spec.position - 1, 0, spec);
  return [...positions].sort((a, b) => b.priority - a.priority || positions.indexOf(a) - positions.indexOf(b));
}

interface ModelCopy {
  spec: JobSpec;
  copy: number;
  state: 'pending' | 'out' | 'done' | 'failed';
}

/** The test's model of the queue: which copy a round gives to the one printer whose plate was just confirmed. */
class QueueModel {
  readonly copies: ModelCopy[] = rankOrder().flatMap((spec) =>
    Array.from({ length: spec.copies }, (_, i) => ({ spec, copy: i + 1, state: 'pending' as const })),
  );

  next(printer: PrinterName): ModelCopy | null {
    const failed = new Set(this.copies.filter((c) => c.state === 'failed').map((c) => c.spec.key));
    return this.copies.find((c) => c.state === 'pending' && !failed.has(c.spec.key) && fits(c.spec, printer)) ?? null;
  }
}

const jobView = async (dashApi: Api, id: string) => (await dashApi.call('get', `/api/queue/${id}`, undefined, TEST_TOKENS.view)).json;
const historyOf = async (dashApi: Api) => {
  const list = await dashApi.call('get', '/api/history?limit=500', undefined, TEST_TOKENS.view);
  assert.equal(list.status, 200, list.text);
  return list.json.items as any[];
};
const spoolsOf = async (dashApi: Api) => {
  const list = await dashApi.call('get', '/api/filaments', undefined, TEST_TOKENS.view);
  assert.equal(list.status, 200, list.text);
  return new Map<number, any>(list.json.items.map((s: any) => [s.id, s]));
};

/** Stops the print once it has made some progress: through the dashboard (cancel) or on the printer itself (fail). */
async function stopMidway(dashApi: Api, printers: FarmPrinters, printer: PrinterName, how: 'cancel' | 'fail'): Promise<void> {
  await eventually(
    `${printer} printing past 10 %`,
    async () => {
      const status = (await dashApi.call('get', `/api/printers/${printers.ids[printer]}/status`, undefined, TEST_TOKENS.view)).json;
      return status.state === 'printing' && (status.job?.progress ?? 0) >= 10;
    },
    30_000,
  );
  if (how === 'fail') farm.bambu[printer as 'B1'].printer.state.fail(PRINTER_FAILURE);
  else assert.equal((await dashApi.call('post', `/api/printers/${printers.ids[printer]}/control`, { action: 'stop' })).status, 204);
}

test('twelve jobs, five printers: plates first, priority then position, each where its filament is, a record per print, spools booked', async () => {
  const registry = new DriverRegistry();
  registry.register('bambu-lan', bambuLanDriverFactory({ startTimeoutMs: 30_000 }));
  registry.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    config: { queue: { retry_delay_ms: 200, round_interval_s: 1 }, rate_limit: { enabled: false } },
    createAuthenticator: testAuthenticator,
    logLevel: 'warn',
    features: [printersFeature, inventoryFeature, historyFeature, liveFeature, queueFeature],
    services: { printers: { drivers: registry } },
  });
  const dashApi = api(dash.url);
  const watch = await FarmWatch.open(dash.url);
  const printers = await setUpPrinters(dashApi, farm);
  const jobIds = new Map<string, string>();
  for (const spec of JOBS) jobIds.set(spec.key, await queueJob(dashApi, spec, printers));
  const specOf = new Map([...jobIds].map(([key, id]) => [id, JOBS.find((j) => j.key === key) as JobSpec]));

  // The queue in dispatch order, as the server has it.
  const listed = (await dashApi.call('get', '/api/queue', undefined, TEST_TOKENS.view)).json.items as any[];
  assert.equal(listed.length, 12);
  assert.equal(listed[0].id, jobIds.get(FAILED), 'posted at position 1');

  // No plate confirmed yet: a round sends nothing, and each job says why it waits.
  const idle = await dashApi.call('post', '/api/queue/dispatch');
  assert.deepEqual(idle.json.dispatched, []);
  for (const spec of JOBS) {
    const reason = (await jobView(dashApi, jobIds.get(spec.key) as string)).waiting_reason;
    if (spec.key === 'tpu') assert.equal(reason, 'no printer has TPU black (#000000) loaded');
    else assert.equal(reason, `plate not cleared on ${PRINTER_NAMES.filter((p) => fits(spec, p)).join(', ')}`, spec.key);
  }
  assert.equal(watch.of('print.dispatched').length, 0);
  for (const name of PRINTER_NAMES) {
    const plate = await dashApi.call('get', `/api/printers/${printers.ids[name]}/plate`, undefined, TEST_TOKENS.view);
    assert.equal(plate.json.state, 'unknown', `${name}: a printer the queue has never seen counts as occupied`);
  }
  assert.deepEqual([farm.starts.B1.length, farm.starts.B2.length, farm.starts.B3.length], [0, 0, 0]);

  // The operator: confirms one plate at a time, each after its printer's print ended, and checks the claim each confirmation gets.
  const model = new QueueModel();
  const free: PrinterName[] = [...PRINTER_NAMES];
  const running = new Map<PrinterName, ModelCopy>();
  const stoppers: Promise<void>[] = [];
  let endsSeen = 0;
  const order: string[] = [];
  while (free.length > 0 || running.size > 0) {
    const printer = free.shift();
    if (printer) {
      const expected = model.next(printer);
      const from = watch.messages.length;
      const cleared = await dashApi.call('post', `/api/printers/${printers.ids[printer]}/plate-cleared`);
      assert.equal(cleared.status, 200, cleared.text);
      if (!expected) {
        // Nothing fits this printer any more: a round now sends nothing to it.
        await dashApi.call('post', '/api/queue/dispatch');
        assert.equal(watch.claims.filter((c) => c.printer_id === printers.ids[printer] && c.at >= from).length, 0, `nothing for ${printer}`);
        continue;
      }
      const claim = await watch.nextClaim(printers.ids[printer], from, `a claim on ${printer} (expected ${expected.spec.key} #${expected.copy})`);
      assert.deepEqual([specOf.get(claim.job_id)?.key, claim.copy], [expected.spec.key, expected.copy], `the copy ${printer} got`);
      expected.state = 'out';
      running.set(printer, expected);
      order.push(`${expected.spec.key}#${expected.copy}@${printer}`);
      if (expected.spec.key === CANCELLED) stoppers.push(stopMidway(dashApi, printers, printer, 'cancel'));
      if (expected.spec.key === FAILED) stoppers.push(stopMidway(dashApi, printers, printer, 'fail'));
      continue;
    }
    // Wait for the next print to end (history.added); its printer's plate is then confirmed.
    const ended = await watch.next(
      'history.added',
      () => true,
      `the next print to end (out: ${[...running].map(([p, c]) => `${c.spec.key}#${c.copy}@${p}`).join(' ')})`,
      endsSeen,
      60_000,
    );
    endsSeen = ended.at + 1;
    const name = printers.names[ended.payload.printer_id] as PrinterName;
    const copy = running.get(name);
    assert.ok(copy, `an end on ${name}, which the test did not send anything to`);
    assert.deepEqual([ended.payload.started_by.job_id, ended.payload.started_by.copy], [jobIds.get(copy.spec.key), copy.copy]);
    copy.state = ended.payload.state === 'finished' ? 'done' : 'failed';
    running.delete(name);
    free.push(name);
  }
  await Promise.all(stoppers);

  // Every print went out after its plate was confirmed; the order held (checked claim by claim above).
  watch.assertPlatesClearedFirst();
  assert.equal(order.length, 13, order.join(' '));

  // Each print where its filament is: the dispatched slots hold the spools of the job's material and colour; the AMS mapping the printer got.
  const dispatched = watch.of('print.dispatched');
  assert.equal(dispatched.length, 13);
  const startsSeen = { B1: 0, B2: 0, B3: 0 };
  for (const d of dispatched) {
    const spec = specOf.get(d.job_id) as JobSpec;
    const printer = printers.names[d.printer_id] as PrinterName;
    assert.ok(fits(spec, printer), `${spec.key} on ${printer}`);
    assert.equal(d.filaments.length, spec.filaments.length);
    for (const [i, f] of spec.filaments.entries()) {
      const planned = d.filaments[i];
      const label = labelOf(planned.slot);
      assert.deepEqual([planned.material, planned.color_hex?.toUpperCase()], [f.material, f.color], `${spec.key} filament ${i + 1}`);
      assert.equal(planned.spool_id, printers.spools[printer][label], `${spec.key}: the spool in ${printer} ${label}`);
    }
    if (printer.startsWith('B')) {
      const start = farm.starts[printer as 'B1'][startsSeen[printer as 'B1']++];
      assert.deepEqual(
        start.ams_mapping,
        d.filaments.map((p: any) => p.slot.tray),
      );
    }
  }
  assert.deepEqual([farm.starts.B1.length, farm.starts.B2.length, farm.starts.B3.length], [startsSeen.B1, startsSeen.B2, startsSeen.B3]);
  // The Marlin printers' own count: the filament they pushed, one file's worth per print sent to them.
  for (const name of ['M1', 'M2'] as const) {
    const prints = dispatched.filter((d) => d.printer_id === printers.ids[name]).length;
    assert.ok(Math.abs(farm.marlin[name].printer.state().extruded[0] - prints * MARLIN_EXTRUDED_MM) < 0.5, `${name}: ${prints} prints`);
  }

  // One record per print, with its end state.
  const records = await historyOf(dashApi);
  assert.equal(records.length, 13);
  const byCopy = new Map(records.map((r) => [`${r.started_by.job_id}#${r.started_by.copy}`, r]));
  assert.equal(byCopy.size, 13, 'no print recorded twice');
  for (const d of dispatched) {
    const record = byCopy.get(`${d.job_id}#${d.copy}`);
    const key = specOf.get(d.job_id)?.key;
    assert.ok(record, `the record of ${key} #${d.copy}`);
    assert.equal(record.printer_id, d.printer_id);
    assert.equal(record.started_by.kind, 'queue');
    const wanted = END_STATES[key as string] ?? 'finished';
    assert.equal(record.state, wanted, `${key}: ${record.error}`);
    assert.equal(record.filament_booked, true);
  }
  assert.match(byCopy.get(`${jobIds.get(FAILED)}#1`)?.error ?? '', /0500-4003/);
  assert.deepEqual(
    watch
      .of('history.added')
      .map((r) => r.id)
      .sort(),
    records.map((r) => r.id).sort(),
    'history.added once per record',
  );

  // The queue: each job's end; the TPU job still waits, saying why.
  for (const spec of JOBS) {
    const view = await jobView(dashApi, jobIds.get(spec.key) as string);
    const wanted = JOB_STATES[spec.key] ?? 'done';
    assert.equal(view.state, wanted, spec.key);
  }
  assert.equal((await jobView(dashApi, jobIds.get('tpu') as string)).waiting_reason, 'no printer has TPU black (#000000) loaded');

  // The spools: each lost what its prints used — Marlin by the extruded length, Bambu by the file's grams (× progress when stopped early).
  const expectedUse = new Map<number, number>();
  for (const record of records) {
    const spec = specOf.get(record.started_by.job_id) as JobSpec;
    for (const [i, f] of spec.filaments.entries()) {
      const used = record.filament.find((u: any) => u.material === f.material && u.color_hex?.toUpperCase() === f.color);
      assert.ok(used, `${spec.key}: filament ${i + 1} in the record`);
      let grams: number;
      if (spec.kind === 'marlin') {
        assert.ok(Math.abs(used.length_mm - MARLIN_EXTRUDED_MM) < 0.5, `${spec.key}: ${used.length_mm} mm`);
        grams = gramsOf(MARLIN_EXTRUDED_MM, 1.75, densityOf(f.material));
      } else {
        const share = record.state === 'finished' ? 1 : record.progress / 100;
        if (record.state !== 'finished') assert.ok(record.progress >= 10 && record.progress < 100, `${spec.key}: progress ${record.progress}`);
        grams = f.grams * share;
      }
      assert.ok(Math.abs(used.grams - grams) < 0.01, `${spec.key}: ${used.grams} g, expected ${grams}`);
      const spool = LOADS[printers.names[record.printer_id] as PrinterName][labelOf(used.slot)];
      assert.ok(Math.abs(used.cost - (grams * spool.price) / spool.initial_weight_g) < 0.001, `${spec.key}: cost ${used.cost}`);
      expectedUse.set(used.spool_id, (expectedUse.get(used.spool_id) ?? 0) + grams);
    }
  }
  const spools = await spoolsOf(dashApi);
  for (const printer of PRINTER_NAMES) {
    for (const [label, spec] of Object.entries(LOADS[printer])) {
      const id = printers.spools[printer][label];
      const spool = spools.get(id);
      const used = expectedUse.get(id) ?? 0;
      assert.ok(Math.abs(spool.used_weight_g - used) < 0.02, `${printer} ${label}: used ${spool.used_weight_g} g, expected ${used}`);
      assert.ok(Math.abs(spool.remaining_weight_g - (spec.initial_weight_g - used)) < 0.02);
      const last = watch
        .of('spool.update')
        .filter((u) => u.spool.id === id)
        .at(-1);
      if (used > 0) assert.ok(last && Math.abs(last.spool.used_weight_g - spool.used_weight_g) < 1e-9, `spool.update of ${printer} ${label}`);
    }
  }
  watch.close();
});

test('SIGKILL in the middle of the run: no job lost, doubled or dispatched twice, no record doubled, spools booked once', async () => {
  await dash.stop();
  // The Marlin links are made anew once their host closed them.
  await Promise.all([farm.marlin.M1.hostReady(), farm.marlin.M2.hostReady()]);
  await restartPart(farm);
});
