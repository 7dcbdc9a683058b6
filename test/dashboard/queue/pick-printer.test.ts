/**
 * Picking a printer within one round: the printers' filament matches are kept for the round, so
 * jobs that ask for the same filaments share them; what a job gets and the reason it waits are
 * the same as when each job matched afresh.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FilamentRequirement, QueueJob } from '../../../appliance/dashboard/queue/job.js';
import { matchFilaments, type LoadedFilament } from '../../../appliance/dashboard/queue/matching.js';
import { pickPrinter } from '../../../appliance/dashboard/queue/pick-printer.js';
import type { RoundPrinter } from '../../../appliance/dashboard/queue/printer-snapshots.js';
import type { PrinterView } from '../../../appliance/dashboard/printers/printer.js';

function printer(name: string, trays: Array<[material: string, color: string]>, overrides: Partial<RoundPrinter> = {}): RoundPrinter {
  const loaded: LoadedFilament[] = trays.map(([material, color_hex], tray) => ({
    slot: { kind: 'ams', unit: 0, tray },
    material,
    color_hex,
    spool_id: null,
  }));
  return {
    view: { id: name, name } as PrinterView,
    notReady: null,
    plateClear: true,
    matches: new Map(),
    snapshot: { id: name, name, type: 'bambu-lan', model: 'P1S', nozzle_diameter: 0.4, format: 'gcode.3mf', printer_profile: null, loaded },
    ...overrides,
  };
}

function job(filaments: Array<[material: string, color: string | null]>): QueueJob {
  const requirements = {
    printer_ids: [],
    printer_type: null,
    printer_model: null,
    nozzle_diameter: null,
    filaments: filaments.map(([material, color_hex], i): FilamentRequirement => ({ filament: i + 1, material, color_hex })),
  };
  return { requirements, file: { format: 'gcode.3mf' }, slice: null } as unknown as QueueJob;
}

test('jobs asking for the same filaments in one round each get their own printer, with that printer’s mapping', () => {
  const printers = [
    printer('A', [
      ['PLA', '#FFFFFF'],
      ['PETG', '#000000'],
    ]),
    printer('B', [
      ['PETG', '#000000'],
      ['PLA', '#FFFFFF'],
    ]),
  ];
  const taken = new Set<string>();
  const picks = [job([['PLA', '#FFFFFF']]), job([['PLA', '#FFFFFF']]), job([['PLA', '#FFFFFF']])].map((j) => {
    const pick = pickPrinter(j, printers, taken);
    if ('printer' in pick) taken.add(pick.printer.view.id);
    return pick;
  });
  assert.deepEqual(
    picks.map((p) => ('printer' in p ? [p.printer.view.id, p.match.ams_mapping] : p.reason)),
    [['A', [0]], ['B', [1]], 'waiting for A (taken by another job), B (taken by another job)'],
  );
  // The kept match is the one matching afresh gives.
  assert.deepEqual(pickPrinter(job([['PLA', '#FFFFFF']]), printers, new Set()), {
    printer: printers[0],
    match: matchFilaments(printers[0].snapshot, job([['PLA', '#FFFFFF']]).requirements.filaments),
  });
});

test('a filament no printer has is named once, however many printers lack it', () => {
  const printers = ['A', 'B', 'C'].map((name) => printer(name, [['PLA', '#FFFFFF']]));
  const waiting = job([
    ['PETG', '#000000'],
    ['PLA', '#FFFFFF'],
    ['TPU', null],
  ]);
  assert.deepEqual(pickPrinter(waiting, printers, new Set()), { reason: 'no printer has PETG black (#000000) and TPU loaded' });
  // Asked again in the same round (the next copy), the answer is the same.
  assert.deepEqual(pickPrinter(waiting, printers, new Set()), { reason: 'no printer has PETG black (#000000) and TPU loaded' });
});

test('the plate and readiness are read for every job, not kept with the match', () => {
  const printers = [
    printer('A', [['PLA', '#FFFFFF']], { plateClear: false }),
    printer('B', [['PLA', '#FFFFFF']], { notReady: 'printer "B" is busy (printing)' }),
  ];
  const white = job([['PLA', '#FFFFFF']]);
  assert.deepEqual(pickPrinter(white, printers, new Set()), { reason: 'waiting for B (printer "B" is busy (printing)); plate not cleared on A' });
  printers[0].plateClear = true;
  const pick = pickPrinter(white, printers, new Set());
  assert.ok('printer' in pick && pick.printer.view.id === 'A');
});

test('a reason names up to three printers; beyond, it says what the job waits for without names, so it stays the same', () => {
  const white = job([['PLA', '#FFFFFF']]);
  const farm = (count: number, overrides: Partial<RoundPrinter>) =>
    Array.from({ length: count }, (_, i) => printer(`P${i + 1}`, [['PLA', '#FFFFFF']], overrides));
  const reason = (printers: RoundPrinter[], taken = new Set<string>()) => {
    const pick = pickPrinter(white, printers, taken);
    return 'reason' in pick ? pick.reason : null;
  };
  assert.equal(reason(farm(3, { plateClear: false })), 'plate not cleared on P1, P2, P3');
  assert.equal(reason(farm(4, { plateClear: false })), 'plate not cleared on any of the printers that fit it');
  assert.equal(reason(farm(50, { plateClear: false })), reason(farm(49, { plateClear: false })));
  assert.equal(reason(farm(2, {}), new Set(['P1', 'P2'])), 'waiting for P1 (taken by another job), P2 (taken by another job)');
  const many = [
    ...farm(5, { notReady: 'printing' }),
    ...farm(6, { plateClear: false }).map((p) => ({ ...p, view: { ...p.view, name: `Q${p.view.name}` } })),
  ];
  assert.equal(reason(many), 'waiting for one of the printers that fit it (busy or not ready); plate not cleared on any of the printers that fit it');
});
