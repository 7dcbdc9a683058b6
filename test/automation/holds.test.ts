/**
 * The node package's hold bookkeeping (appliance/node-red-printyard/lib/holds.js) and material
 * families (lib/materials.js), loaded as Node-RED loads them (CommonJS).
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const lib = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'appliance', 'node-red-printyard', 'lib');
const require = createRequire(import.meta.url);
const { planHold, planRelease, recordHolds } = require(path.join(lib, 'holds.js'));
const { families, familyList } = require(path.join(lib, 'materials.js'));

const job = (id: string, state: string, material = 'PLA') => ({ id, state, requirements: { filaments: [{ filament: 1, material }] } });

test('material names match by family: words in upper case, trailing digits dropped', () => {
  assert.deepEqual(families('PA6-CF'), ['PA', 'CF']);
  assert.deepEqual(families('Silk PLA'), ['SILK', 'PLA']);
  assert.deepEqual(families('PCTG'), ['PCTG']);
  assert.deepEqual(familyList('PA, pc;TPU'), ['PA', 'PC', 'TPU']);
});

test('a hold takes waiting, failed and running jobs, not done, cancelled or hand-held ones; materials narrow it', () => {
  const jobs = [job('a', 'queued'), job('b', 'failed', 'PA12'), job('c', 'done'), job('d', 'cancelled'), job('e', 'held'), job('f', 'printing')];
  assert.deepEqual(planHold(jobs, {}, 'window', null), { toHold: ['a', 'b', 'f'], toRecord: [] });
  assert.deepEqual(planHold(jobs, {}, 'climate:1', ['PA']), { toHold: ['b'], toRecord: [] });
});

test('a release lets go only of what its reason held and no other reason still holds', () => {
  let holds = recordHolds({}, 'window', ['a', 'b']);
  // b is held by the window; the climate rule then holds it too (recorded, not held twice).
  const plan = planHold([job('a', 'held'), job('b', 'held', 'PA'), job('m', 'held', 'PA')], holds, 'climate:1', ['PA']);
  assert.deepEqual(plan, { toHold: [], toRecord: ['b'] }, 'm was held by hand: never recorded');
  holds = recordHolds(holds, 'climate:1', plan.toRecord);
  const released = planRelease(holds, 'window');
  assert.deepEqual(released.toRelease, ['a']);
  assert.deepEqual(planRelease(released.holds, 'climate:1').toRelease, ['b']);
  assert.deepEqual(planRelease({}, 'window'), { toRelease: [], holds: {} });
});
