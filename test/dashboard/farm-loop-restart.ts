/**
 * The restart part of farm-loop.test.ts: the same farm driven by a dashboard in a child process
 * (farm-loop-child.ts), killed with SIGKILL while two Bambu copies print and a third is being
 * dispatched (B3 drops the start: "developer mode off"), after the Marlin copies have ended and
 * been booked; then started again on the same data dir. It must lose, double and re-send nothing:
 * the printing copies are found printing and closed once, the claimed copy goes out once more
 * (the printer never started it), the jobs behind them go out after their plates are confirmed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../fixtures/eventually.js';
import {
  LOADS,
  MARLIN_EXTRUDED_MM,
  densityOf,
  queueJob,
  setUpPrinters,
  TEST_TOKENS,
  type Api,
  type Farm,
  type FarmPrinters,
  type JobSpec,
  type PrinterName,
} from './farm-loop-farm.js';
import { startChild, type Child } from './farm-loop-child-process.js';
import { FarmWatch } from './farm-loop-watch.js';
import { gramsOf } from '../../appliance/dashboard/history/filament.js';

const WAIT_MS = 30_000;

const long = { minutes: 10, layers: 6 };
const JOBS: JobSpec[] = [
  { key: 'r-b1', kind: 'bambu', filaments: [{ material: 'PLA', color: '#FFFFFF', grams: 7 }], priority: 2, copies: 1, pinned: 'B1', ...long },
  { key: 'r-b2', kind: 'bambu', filaments: [{ material: 'PLA', color: '#FF0000', grams: 9 }], priority: 2, copies: 1, pinned: 'B2', ...long },
  { key: 'r-b3', kind: 'bambu', filaments: [{ material: 'PLA', color: '#0000FF', grams: 11 }], priority: 2, copies: 1, pinned: 'B3' },
  { key: 'r-m1', kind: 'marlin', filaments: [{ material: 'PLA', color: '#FFFFFF', grams: 0 }], priority: 1, copies: 1 },
  { key: 'r-m2', kind: 'marlin', filaments: [{ material: 'PETG', color: '#000000', grams: 0 }], priority: 1, copies: 1 },
  { key: 'r-after', kind: 'bambu', filaments: [{ material: 'PLA', color: '#FFFFFF', grams: 4 }], priority: -1, copies: 2 },
];

const jobsOf = async (dash: Api) => (await dash.call('get', '/api/queue', undefined, TEST_TOKENS.view)).json.items as any[];
const byKey = (jobs: any[], key: string) => jobs.find((j) => j.name === key);

/** The copies' states by job name. */
async function copyStates(dash: Api): Promise<Record<string, string[]>> {
  return Object.fromEntries((await jobsOf(dash)).map((j) => [j.name, j.copies.map((c: any) => c.state)]));
}

export async function restartPart(farm: Farm): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-farm-restart-'));
  writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({ queue: { retry_delay_ms: 60_000, round_interval_s: 1 }, rate_limit: { enabled: false } }),
  );
  const startsBefore = { B1: farm.starts.B1.length, B2: farm.starts.B2.length, B3: farm.starts.B3.length };
  const pushedBefore = { M1: pushed(farm, 'M1'), M2: pushed(farm, 'M2') };
  const watches: FarmWatch[] = [];
  let second: Child | undefined;
  const first = await startChild(dataDir);
  try {
    watches.push(await FarmWatch.open(first.api.url));
    const printers = await setUpPrinters(first.api, farm);
    await farm.bambu.B3.setFault('developerModeOff', true);
    for (const spec of JOBS) await queueJob(first.api, spec, printers);
    for (const name of ['B1', 'B2', 'B3', 'M1', 'M2'] as const) {
      assert.equal((await first.api.call('post', `/api/printers/${printers.ids[name]}/plate-cleared`)).status, 200);
    }

    // The moment of the kill: the Marlin copies ended (and booked), B1 and B2 print, B3's start was dropped.
    await eventually('B3 sent its start (dropped)', () => farm.starts.B3.length === startsBefore.B3 + 1, WAIT_MS);
    const atKill = await eventually(
      'B1 and B2 printing, B3 dispatching, the Marlin copies done',
      async () => {
        const states = await copyStates(first.api);
        const ready =
          states['r-b1'][0] === 'printing' &&
          states['r-b2'][0] === 'printing' &&
          states['r-b3'][0] === 'dispatching' &&
          states['r-m1'][0] === 'done' &&
          states['r-m2'][0] === 'done';
        return ready ? states : null;
      },
      WAIT_MS,
    );
    assert.deepEqual(atKill['r-after'], ['pending', 'pending']);
    const bookedBefore = await usedWeights(first.api);
    await first.kill();
    const onDisk = JSON.parse(readFileSync(path.join(dataDir, 'queue.json'), 'utf8'));
    assert.deepEqual(
      onDisk.jobs.map((j: any) => [j.name, j.copies.map((c: any) => c.state)]),
      JOBS.map((j) => [j.key, atKill[j.key]]),
    );

    await farm.bambu.B3.setFault('developerModeOff', false);
    second = await startChild(dataDir);
    watches.push(await FarmWatch.open(second.api.url));
    const again = second.api;
    // The copies that printed through the restart end once; the claimed one goes out to B3 once more.
    await eventually(
      'the three Bambu copies done',
      async () => {
        const states = await copyStates(again);
        return ['r-b1', 'r-b2', 'r-b3'].every((k) => states[k][0] === 'done');
      },
      WAIT_MS,
    );
    // The two copies behind them, once B1 and B2 are confirmed clear.
    for (const name of ['B1', 'B2'] as const) {
      assert.equal((await again.call('post', `/api/printers/${printers.ids[name]}/plate-cleared`)).status, 200);
    }
    await eventually('r-after done', async () => (await copyStates(again))['r-after'].every((s) => s === 'done'), WAIT_MS);
    await checkNothingLostOrDoubled(again, farm, printers, startsBefore, watches, bookedBefore);
    // The Marlin printers printed their file once each: one file's worth of filament pushed.
    for (const name of ['M1', 'M2'] as const) assert.ok(Math.abs(pushed(farm, name) - pushedBefore[name] - MARLIN_EXTRUDED_MM) < 0.5, name);
    assert.deepEqual((await usedWeights(again)).get(printers.spools.M1.T0), bookedBefore.get(printers.spools.M1.T0), 'M1 booked once');
    assert.deepEqual((await usedWeights(again)).get(printers.spools.M2.T0), bookedBefore.get(printers.spools.M2.T0), 'M2 booked once');
  } finally {
    for (const watch of watches) watch.close();
    await first.kill();
    await second?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Millimetres of filament the virtual Marlin pushed through its tool since it started: its own record of what it printed. */
function pushed(farm: Farm, name: 'M1' | 'M2'): number {
  return farm.marlin[name].printer.state().extruded[0];
}

async function usedWeights(dash: Api): Promise<Map<number, number>> {
  const list = await dash.call('get', '/api/filaments', undefined, TEST_TOKENS.view);
  assert.equal(list.status, 200, list.text);
  return new Map(list.json.items.map((s: any) => [s.id, s.used_weight_g]));
}

async function checkNothingLostOrDoubled(
  dash: Api,
  farm: Farm,
  printers: FarmPrinters,
  startsBefore: Record<'B1' | 'B2' | 'B3', number>,
  watches: FarmWatch[],
  bookedBefore: Map<number, number>,
): Promise<void> {
  // Every job once, every copy done; only B3's copy was claimed twice (its first start never ran).
  const jobs = await jobsOf(dash);
  assert.deepEqual(jobs.map((j) => j.name).sort(), JOBS.map((j) => j.key).sort());
  for (const spec of JOBS) {
    const job = byKey(jobs, spec.key);
    assert.equal(job.state, 'done', spec.key);
    assert.deepEqual(
      job.copies.map((c: any) => c.dispatches),
      spec.key === 'r-b3' ? [2] : Array(spec.copies).fill(1),
      spec.key,
    );
  }
  // The printers' own starts: one per copy they printed; B3 also the one it dropped.
  const copiesOn = (name: PrinterName) => jobs.flatMap((j) => j.copies).filter((c: any) => c.printer_id === printers.ids[name]).length;
  for (const name of ['B1', 'B2', 'B3'] as const) {
    assert.equal(farm.starts[name].length - startsBefore[name], copiesOn(name) + (name === 'B3' ? 1 : 0), `starts on ${name}`);
  }
  // One record per print, each finished; one history.added each across both dashboards.
  const records = (await dash.call('get', '/api/history?limit=500', undefined, TEST_TOKENS.view)).json.items as any[];
  assert.equal(records.length, 7);
  assert.equal(new Set(records.map((r) => `${r.started_by.job_id}#${r.started_by.copy}`)).size, 7, 'no print recorded twice');
  assert.ok(
    records.every((r) => r.state === 'finished' && r.filament_booked),
    JSON.stringify(records.map((r) => [r.file, r.state])),
  );
  const added = watches.flatMap((w) => w.of('history.added').map((r) => r.id));
  assert.deepEqual(added.sort(), records.map((r) => r.id).sort(), 'history.added once per record');
  for (const name of ['M1', 'M2'] as const) assert.equal(records.filter((r) => r.printer_id === printers.ids[name]).length, 1);

  // The spools: each print's filament taken off once.
  const expected = new Map<number, number>();
  for (const record of records) {
    const spec = JOBS.find((j) => byKey(jobs, j.key)?.id === record.started_by.job_id) as JobSpec;
    const f = spec.filaments[0];
    const printer = Object.entries(printers.ids).find(([, id]) => id === record.printer_id)?.[0] as PrinterName;
    const label = Object.entries(LOADS[printer]).find(([, s]) => s.material === f.material && s.color === f.color)?.[0] as string;
    const grams = spec.kind === 'marlin' ? gramsOf(MARLIN_EXTRUDED_MM, 1.75, densityOf(f.material)) : f.grams;
    const spool = printers.spools[printer][label];
    expected.set(spool, (expected.get(spool) ?? 0) + grams);
  }
  const used = await usedWeights(dash);
  for (const [spool, grams] of expected)
    assert.ok(Math.abs((used.get(spool) ?? 0) - grams) < 0.02, `spool ${spool}: ${used.get(spool)} g, expected ${grams}`);
  for (const [spool, grams] of used) if (!expected.has(spool)) assert.equal(grams, bookedBefore.get(spool) ?? 0);
}
