/**
 * The plan slice-and-send announces (print-plan.ts): the driver's feeds where it plans its start
 * (Bambu's AMS mapping), else filament n from the printer's default place (Marlin T(n−1), Bambu
 * tray n−1) for each filament the slicer says is used; the spool loaded in each slot (archived
 * ones not), the slicer's grams and length.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plannedFilaments } from '../../../appliance/dashboard/slicing/print-plan.js';
import { MemorySpools } from '../../fixtures/memory-spools.js';

const spools = new MemorySpools([
  { id: 1, material: 'PLA', color_hex: '#ff0000' },
  { id: 2, material: 'PETG', color_hex: '#000000' },
  { id: 3, material: 'ABS', color_hex: '#ffffff', archived: true },
  { id: 4, material: 'PETG', color_hex: '#111111' },
]);
spools.load(1, 'm1', { kind: 'tool', tool: 0 });
spools.load(2, 'm1', { kind: 'tool', tool: 2 });
spools.load(3, 'm1', { kind: 'tool', tool: 1 });
spools.load(4, 'b1', { kind: 'ams', unit: 1, tray: 0 });

test('a Marlin printer: filament n from T(n−1), unused filaments left out, the spool per tool (archived ones not)', () => {
  const sliced = { estimate_s: 600, grams: [5, 0, 2.5], length_mm: [1700, 0, 800] };
  const plan = plannedFilaments({ id: 'm1', type: 'marlin-serial' }, null, sliced, spools);
  assert.deepEqual(plan, [
    { filament: 1, slot: { kind: 'tool', tool: 0 }, spool_id: 1, material: 'PLA', color_hex: '#ff0000', grams: 5, length_mm: 1700 },
    { filament: 3, slot: { kind: 'tool', tool: 2 }, spool_id: 2, material: 'PETG', color_hex: '#000000', grams: 2.5, length_mm: 800 },
  ]);
  const tool1 = plannedFilaments({ id: 'm1', type: 'marlin-serial' }, null, { estimate_s: null, grams: [0, 4], length_mm: [] }, spools);
  assert.deepEqual(
    tool1.map((f) => [f.slot, f.spool_id, f.material]),
    [[{ kind: 'tool', tool: 1 }, null, '']],
  );
});

test("a Bambu printer: the driver's feeds win over the default trays; without them filament n is tray n−1", () => {
  const sliced = { estimate_s: null, grams: [3, 6], length_mm: [1000, 2000] };
  const feeds = [{ filament: 2, slot: { kind: 'ams' as const, unit: 1, tray: 0 }, material: 'PETG', color_hex: '#111111' }];
  assert.deepEqual(plannedFilaments({ id: 'b1', type: 'bambu-lan' }, feeds, sliced, spools), [
    { filament: 2, slot: { kind: 'ams', unit: 1, tray: 0 }, spool_id: 4, material: 'PETG', color_hex: '#111111', grams: 6, length_mm: 2000 },
  ]);
  assert.deepEqual(
    plannedFilaments({ id: 'b1', type: 'bambu-lan' }, [], { estimate_s: null, grams: [0, 0, 0, 0, 1], length_mm: [] }, null).map((f) => f.slot),
    [{ kind: 'ams', unit: 1, tray: 0 }],
  );
  assert.deepEqual(plannedFilaments({ id: 'b1', type: 'bambu-lan' }, null, null, spools), []);
});
