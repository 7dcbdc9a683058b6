import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LayerBuffer, MoveKind } from '../../../../appliance/slicer/engine/gcode/layer-buffer.js';

function layer(): LayerBuffer {
  const b = new LayerBuffer();
  b.move(10, 0, 0, 0, 100, MoveKind.Travel); // 0.1 s
  b.move(10, 10, 0, 0.5, 10, MoveKind.Extrude); // 1 s
  b.move(20, 10, 0, 0.5, 50, MoveKind.Extrude); // 0.2 s
  return b;
}

test('ideal times are lengths over feed rates, split into extruding and total', () => {
  const t = layer().idealTimes(0, 0, 0);
  assert.ok(Math.abs(t.total - 1.3) < 1e-9);
  assert.ok(Math.abs(t.extruding - 1.2) < 1e-9);
});

test('slowing down reaches the target without going under the minimum speed', () => {
  const b = layer();
  b.slowDownTo(2.2, 5, 0, 0, 0);
  const t = b.idealTimes(0, 0, 0);
  assert.ok(Math.abs(t.extruding - 2.2) < 1e-4, `${t.extruding}`);
  // The 10 mm/s move stopped at the floor of 5 mm/s: 2 s; the fast one took the rest.
  assert.equal(b.moves[1 * 6 + 4] >= 5, true);
  const floored = layer();
  floored.slowDownTo(100, 5, 0, 0, 0);
  assert.ok(Math.abs(floored.idealTimes(0, 0, 0).extruding - 4) < 1e-4, 'both moves at the 5 mm/s floor');
});
