/**
 * The recorder's rules on reports made up here (the driver tests next to this one use real
 * printers): announcements that arrive late or twice, a Marlin status that runs ahead of its
 * progress, a reason that arrives after the end, an open record deleted, a ledger that is down
 * when the print ends (booked at the next start, once).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { createLogger } from '../../../appliance/common/logger.js';
import { fromProgress, fromStatus, type Observation } from '../../../appliance/dashboard/history/observation.js';
import type { HistoryRecord } from '../../../appliance/dashboard/history/record.js';
import { PrintRecorder } from '../../../appliance/dashboard/history/recorder.js';
import { HistoryStore } from '../../../appliance/dashboard/history/store.js';
import { ThumbnailStore } from '../../../appliance/dashboard/history/thumbnails.js';
import type { PrinterStatus, PrintProgress } from '../../../appliance/dashboard/printers/status.js';
import type { PrintDispatched } from '../../../appliance/dashboard/queue/print-dispatched.js';
import { MemorySpools } from '../../fixtures/memory-spools.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });
let dir: string;
let store: HistoryStore;
let closed: HistoryRecord[];

function recorder(ledger: MemorySpools | null = null): PrintRecorder {
  return new PrintRecorder({
    store,
    thumbnails: new ThumbnailStore(dir, quiet),
    printers: { describe: (id) => (id === 'gone' ? null : { name: `Printer ${id}`, type: 'marlin-serial' }) },
    ledger,
    closed: (record) => void closed.push(record),
    log: quiet,
    goneGraceMs: 100,
  });
}

function progress(file: string, state: PrintProgress['state'], percent: number, extruded: number[] = [100]): Observation {
  const p: PrintProgress = {
    printer_id: 'p1',
    file,
    progress: percent,
    layer: null,
    total_layers: null,
    elapsed_s: null,
    remaining_s: null,
    updated_at: new Date().toISOString(),
    extruded_mm: extruded,
    ...(state ? { state } : {}),
  };
  return fromProgress(p) as Observation;
}

function status(state: PrinterStatus['state'], file: string | null, error: string | null = null): Observation {
  const job = file === null ? null : { file, progress: 10, layer: null, total_layers: null, elapsed_s: null, remaining_s: null };
  const s: PrinterStatus = { printer_id: 'p1', state, online: true, temperatures: {}, job, fans: {}, error, updated_at: new Date().toISOString() };
  return fromStatus(s) as Observation;
}

const dispatch = (file: string): PrintDispatched => ({
  printer_id: 'p1',
  job_id: 'j1',
  copy: 1,
  file,
  user: 'queue-user',
  estimate_s: 60,
  filaments: [{ filament: 1, slot: { kind: 'tool', tool: 0 }, spool_id: 1, material: 'PLA', color_hex: null, grams: 5, length_mm: 1600 }],
  thumbnail_path: null,
  at: new Date().toISOString(),
});

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-history-'));
  store = await HistoryStore.open({ dataDir: dir, log: quiet });
  closed = [];
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('an announcement that arrives after the printer reported the print still claims it; a late user start does not undo the queue', async () => {
  const r = recorder();
  r.observe('p1', progress('a.gcode', 'printing', 1), true);
  await r.idle();
  assert.equal(store.open()[0]?.started_by.kind, 'printer');
  r.announceStart({ printer_id: 'p1', file: 'a.gcode', user: 'late', estimate_s: null, filaments: [], at: new Date().toISOString() });
  await r.idle();
  assert.deepEqual(store.open()[0]?.started_by, { kind: 'user', user: 'late', job_id: null, copy: null });
  r.observe('p1', progress('a.gcode', 'finished', 100), true);
  r.announceDispatch(dispatch('b.gcode'));
  r.announceStart({
    printer_id: 'p1',
    file: 'b.gcode',
    user: 'through-slice-and-send',
    estimate_s: null,
    filaments: [],
    at: new Date().toISOString(),
  });
  r.observe('p1', progress('b.gcode', 'printing', 1), true);
  await r.idle();
  assert.deepEqual(store.open()[0]?.started_by, { kind: 'queue', user: 'queue-user', job_id: 'j1', copy: 1 });
  await r.stop();
});

test("a Marlin status without a print waits for the progress's end; without one the record is interrupted", async () => {
  const r = recorder();
  r.observe('p1', progress('c.gcode', 'printing', 5), true);
  r.observe('p1', status('idle', null), false);
  r.observe('p1', progress('c.gcode', 'cancelled', 7), true);
  await new Promise((resolve) => setTimeout(resolve, 200));
  await r.idle();
  assert.deepEqual(
    closed.map((c) => [c.file, c.state, c.progress]),
    [['c.gcode', 'cancelled', 7]],
  );
  r.observe('p1', progress('d.gcode', 'printing', 5), true);
  r.observe('p1', status('idle', null), false);
  await new Promise((resolve) => setTimeout(resolve, 200));
  await r.idle();
  assert.deepEqual(
    closed.map((c) => [c.file, c.state]),
    [
      ['c.gcode', 'cancelled'],
      ['d.gcode', 'interrupted'],
    ],
  );
  await r.stop();
});

test('a failed print gets the reason of the status that follows it; another print replaces an open one as interrupted', async () => {
  const r = recorder();
  r.observe('p1', progress('e.gcode', 'printing', 5), true);
  r.observe('p1', progress('e.gcode', 'failed', 6), true);
  await r.idle();
  r.noteError('p1', 'Printer halted. kill() called!');
  await r.idle();
  assert.equal(store.get(closed[0]?.id ?? '')?.error, 'Printer halted. kill() called!');
  const bambu = recorder();
  bambu.observe('p2', status('printing', 'f'), false);
  bambu.observe('p2', status('printing', 'g'), false);
  bambu.observe('p2', status('error', 'g', 'print failed: printing was cancelled (0300-400C)'), false);
  await bambu.idle();
  assert.deepEqual(
    closed.slice(1).map((c) => [c.file, c.state, c.error]),
    [
      ['f', 'interrupted', 'the printer reported another print (g) instead'],
      ['g', 'cancelled', null],
    ],
  );
  await r.stop();
  await bambu.stop();
});

test('an open record deleted: the rest of that print is not recorded again', async () => {
  const r = recorder();
  r.observe('p1', progress('h.gcode', 'printing', 5), true);
  await r.idle();
  const open = store.open()[0] as HistoryRecord;
  r.forget(open);
  await store.delete(open.id);
  r.observe('p1', progress('h.gcode', 'printing', 9), true);
  r.observe('p1', progress('h.gcode', 'finished', 100), true);
  r.observe('p1', progress('i.gcode', 'printing', 1), true);
  await r.idle();
  assert.deepEqual(
    store.all().map((rec) => rec.file),
    ['i.gcode'],
  );
  await r.stop();
});

test('a ledger that is down when the print ends: booked at the next start, once; open records of removed printers are closed', async () => {
  const ledger = new MemorySpools([{ id: 1, material: 'PLA' }]);
  ledger.load(1, 'p1', { kind: 'tool', tool: 0 });
  ledger.failWith = new Error('inventory down');
  const r = recorder(ledger);
  r.observe('p1', progress('j.gcode', 'printing', 5, [0]), true);
  r.observe('p1', progress('j.gcode', 'finished', 100, [1000]), true);
  await r.idle();
  assert.deepEqual([closed[0]?.filament_booked, closed[0]?.filament[0]?.spool_id, ledger.uses.length], [false, 1, 0]);
  await r.stop();
  await store.put({ ...(closed[0] as HistoryRecord), id: 'x'.repeat(18), printer_id: 'gone', state: 'printing', ended_at: null, filament: [] });
  ledger.failWith = null;
  const again = recorder(ledger);
  await again.resume();
  assert.deepEqual(
    ledger.uses.map((u) => [u.key, u.use]),
    [[`history:${closed[0]?.id}:T0`, { length_mm: 1000 }]],
  );
  assert.equal(store.get(closed[0]?.id ?? '')?.filament_booked, true);
  assert.equal(store.get('x'.repeat(18))?.state, 'interrupted');
  await recorder(ledger).resume();
  assert.equal(ledger.uses.length, 1);
  await again.stop();
});
