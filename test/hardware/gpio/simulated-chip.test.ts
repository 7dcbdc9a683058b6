/** The simulated chip's levels (active-low inverted once, at export) and the debouncing of an input. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Level } from '../../../appliance/hardware/gpio/chip.js';
import { debounceInput } from '../../../appliance/hardware/gpio/debounce.js';
import { SimulatedChip } from '../../../appliance/hardware/gpio/simulated-chip.js';

test('an active-low output: logical 1 is a low wire, and every write is recorded', async () => {
  const chip = new SimulatedChip();
  const relay = await chip.exportOutput(17, { activeLow: true, initial: 0 });
  assert.equal(await relay.read(), 0);
  await relay.write(1);
  assert.equal(chip.level(17), 1);
  assert.deepEqual(
    chip.writes.map((w) => [w.pin, w.value]),
    [
      [17, 0],
      [17, 1],
    ],
  );
  await assert.rejects(chip.exportOutput(17, { activeLow: false, initial: 0 }), /exported already/);
  await relay.unexport();
  assert.equal(chip.isExported(17), false);
});

test('an input rests inactive; a bouncing contact is one change after the debounce time', async () => {
  const chip = new SimulatedChip();
  const button = await chip.exportInput(22, { activeLow: true, edge: 'both' });
  assert.equal(await button.read(), 0);
  const changes: Level[] = [];
  const input = await debounceInput(button, 30, (level) => changes.push(level));
  for (const level of [1, 0, 1, 0, 1] as Level[]) chip.drive(22, level);
  assert.deepEqual(changes, [], 'nothing before the contact settles');
  await sleep(80);
  assert.deepEqual(changes, [1]);
  assert.equal(input.level, 1);
  // A blip shorter than the debounce time is no change.
  chip.drive(22, 0);
  await sleep(5);
  chip.drive(22, 1);
  await sleep(80);
  assert.deepEqual(changes, [1]);
  chip.drive(22, 0);
  await sleep(80);
  assert.deepEqual(changes, [1, 0]);
  input.stop();
});
