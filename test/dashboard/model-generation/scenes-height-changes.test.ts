/**
 * A scene's calibration changes without slicing: each piece's `z_from` moved by its placement's
 * z scale and sink (the height map placeObject gives a real temperature tower); a change sunk
 * below the bed applies from the first layer; tipped pieces and disagreeing pieces are 409s naming
 * the objects; objects without changes have no say.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../appliance/common/errors.js';
import { manifoldKernel } from '../../../appliance/dashboard/model-generation/geometry/manifold.js';
import { placeObject } from '../../../appliance/dashboard/model-generation/scenes/placement.js';
import { fullTransform } from '../../../appliance/dashboard/model-generation/scenes/scene.js';
import {
  notedHeightChanges,
  placedHeightChanges,
  sceneHeightChanges,
} from '../../../appliance/dashboard/model-generation/scenes/scene-height-changes.js';
import type { HeightChange } from '../../../appliance/slicer/index.js';
import { generate } from '../../fixtures/solid-facts.js';

const TOWER = { start_temperature: 215, end_temperature: 205, step: 5, block_height: 7 };
const temperature = (z_from: number, value: number): HeightChange => ({ z_from, setting: 'nozzle_temperature', value });

const transform = fullTransform;

function conflict(run: () => unknown, message: RegExp, details: unknown): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof AppError);
    assert.deepEqual([err.status, err.code], [409, 'ERR_CONFLICT']);
    assert.match(err.message, message);
    assert.deepEqual(err.details, details);
    return true;
  });
}

test("a tower's changes move with its z scale and sink, measured on the placed mesh", async () => {
  const model = await generate('temperature-tower', TOWER);
  const changes = notedHeightChanges(model.notes);
  assert.deepEqual(changes, [temperature(1, 215), temperature(8, 210), temperature(15, 205)]);
  const kernel = await manifoldKernel();
  const placed = await placeObject(
    kernel,
    'tower',
    model.mesh,
    transform({ scale: { x: 1, y: 1, z: 1.5 }, translate: { x: 0, y: 0, z: -0.6 }, rotate: { x: 0, y: 0, z: 90 } }),
  );
  // The tower is 22 mm high (1 mm base and three 7 mm blocks): 1.5 times that, less the 0.6 mm sunk.
  assert.ok(Math.abs(placed.size[2] - (22 * 1.5 - 0.6)) < 1e-3, `placed height ${placed.size[2]}`);
  assert.deepEqual(placedHeightChanges({ name: 'tower', changes, heights: placed.heights }), [
    temperature(0.9, 215),
    temperature(11.4, 210),
    temperature(21.9, 205),
  ]);

  // Turned about z, mirrored in x, or turned a whole turn about x: still upright.
  for (const upright of [{ mirror: { x: true, y: false, z: false } }, { rotate: { x: 360, y: 0, z: 45 } }]) {
    const again = await placeObject(kernel, 'tower', model.mesh, transform(upright));
    assert.ok(again.heights !== null, JSON.stringify(upright));
    assert.ok(Math.abs(again.heights.scale - 1) < 1e-9 && Math.abs(again.heights.shift) < 1e-9, JSON.stringify(again.heights));
  }
  // Laid on its side or upside down: its heights no longer follow the printed height.
  for (const tipped of [{ rotate: { x: 90, y: 0, z: 0 } }, { rotate: { x: 0, y: 180, z: 0 } }, { mirror: { x: false, y: false, z: true } }]) {
    const laid = await placeObject(kernel, 'tower', model.mesh, transform(tipped));
    assert.equal(laid.heights, null, JSON.stringify(tipped));
    conflict(() => placedHeightChanges({ name: 'tower', changes, heights: laid.heights }), /"tower" .*tipped over or upside down/, {
      object: 'tower',
    });
  }
});

test('changes sunk to or below the bed: the last of each setting applies from the first layer', () => {
  const changes: HeightChange[] = [
    temperature(1, 215),
    { z_from: 1, setting: 'retraction_length', value: 0.5 },
    temperature(3, 210),
    temperature(8, 205),
  ];
  assert.deepEqual(placedHeightChanges({ name: 'sunk', changes, heights: { scale: 1, shift: -4 } }), [
    { z_from: 0, setting: 'retraction_length', value: 0.5 },
    temperature(0, 210),
    temperature(4, 205),
  ]);
});

test('the plate: pieces that agree give one list, objects without changes have no say, pieces that differ are 409', () => {
  const tower = [temperature(1, 215), temperature(8, 210)];
  const upright = { scale: 1, shift: 0 };
  assert.deepEqual(
    sceneHeightChanges([
      { name: 'gear', changes: [], heights: null },
      { name: 'tower-1', changes: tower, heights: upright },
      { name: 'tower-2', changes: tower, heights: upright },
    ]),
    tower,
  );
  assert.deepEqual(sceneHeightChanges([{ name: 'gear', changes: [], heights: upright }]), []);
  conflict(
    () =>
      sceneHeightChanges([
        { name: 'tower-1', changes: tower, heights: upright },
        { name: 'gear', changes: [], heights: upright },
        { name: 'tower-2', changes: tower, heights: { scale: 1, shift: -0.4 } },
      ]),
    /objects "tower-1" and "tower-2" change settings at different heights/,
    { objects: ['tower-1', 'tower-2'] },
  );
  const retraction: HeightChange[] = [{ z_from: 1, setting: 'retraction_length', value: 0.5 }];
  conflict(
    () =>
      sceneHeightChanges([
        { name: 'tower', changes: tower, heights: upright },
        { name: 'retraction', changes: retraction, heights: upright },
      ]),
    /"tower" and "retraction"/,
    { objects: ['tower', 'retraction'] },
  );
});

test("a job's notes: none is an empty list; a broken list is a bug, not a user's mistake", () => {
  assert.deepEqual(notedHeightChanges({ teeth: 12 }), []);
  assert.deepEqual(notedHeightChanges(undefined), []);
  assert.throws(() => notedHeightChanges({ height_changes: [{ z_from: -1, setting: 'nozzle_temperature', value: 200 }] }), /z_from/);
});
