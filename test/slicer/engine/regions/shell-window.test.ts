import assert from 'node:assert/strict';
import { test } from 'node:test';
import { differenceEx, differenceOfAll, intersectionOfAll, offsetEx, xorEx } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { hashExPolygons } from '../../../../appliance/slicer/engine/geometry/hash.js';
import { totalArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { windowGroups, type WindowLayer } from '../../../../appliance/slicer/engine/regions/shell-window.js';

/** A ragged ring like a scan's section: its radius wobbles with the angle and drifts from layer to layer. */
function raggedLayer(k: number, seed: number): ExPolygon[] {
  let s = seed;
  const random = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  /** Counter-clockwise, or clockwise (a hole) when `turn` is -1. */
  const ring = (radius: number, points: number, turn: 1 | -1) => {
    const out = new Float64Array(points * 2);
    for (let i = 0; i < points; i++) {
      const a = (turn * 2 * Math.PI * i) / points;
      const r = radius + 0.3 * Math.sin(5 * a + 0.4 * k) + 0.08 * random();
      out[2 * i] = 50 + r * Math.cos(a);
      out[2 * i + 1] = 50 + r * Math.sin(a);
    }
    return out;
  };
  return offsetEx([{ contour: ring(20 - 0.15 * k, 120, 1), holes: [ring(6 + 0.2 * k, 90, -1)] }], -0.8);
}

const layers: WindowLayer[] = Array.from({ length: 16 }, (_, k) => {
  const inner = raggedLayer(k, 7 + k);
  return { hash: hashExPolygons(inner), inner };
});

test('the groups of a window intersect to what every layer of it leaves, for windows of even and odd size', () => {
  for (const size of [2, 5, 6, 7]) {
    for (let start = 0; start + size <= layers.length; start++) {
      const window = layers.slice(start, start + size);
      const whole = intersectionOfAll(window.map((l) => l.inner));
      const grouped = intersectionOfAll(windowGroups(window));
      assert.ok(totalArea(whole) > 100, 'the window leaves an infill area');
      // The same area up to Clipper's 0.1 µm grid: the groups' corners are rounded where the whole's are.
      assert.ok(totalArea(xorEx(whole, grouped)) < 1e-3, `window of ${size} from ${start}`);
    }
  }
});

test('the upper group of a layer is the lower group of the layer half a window up, found once', () => {
  const at = (i: number) => windowGroups(layers.slice(i, i + 6));
  for (let i = 0; i + 9 <= layers.length; i++) assert.equal(at(i + 3)[0], at(i)[1]);
  // Layers with equal outlines count once: a group of one distinct layer is that layer's area.
  const copies = [layers[0], { ...layers[0] }, layers[0], layers[1]];
  assert.equal(windowGroups(copies)[0], layers[0].inner);
});

test('an area computed again is a new operand: a group is never taken for other arrays of the same layers', () => {
  const window = layers.slice(0, 4);
  const before = intersectionOfAll(windowGroups(window));
  // The same hashes with other areas (another job's wall thickness): the groups are intersected anew.
  const thinner = window.map((l) => ({ hash: l.hash, inner: offsetEx(l.inner, -0.5) }));
  const after = intersectionOfAll(windowGroups(thinner));
  assert.ok(totalArea(after) < totalArea(before) - 1);
  assert.ok(totalArea(xorEx(after, intersectionOfAll(thinner.map((l) => l.inner)))) < 1e-3);
});

test('what of a layer the window does not leave is found in one boolean with the groups as with their intersection', () => {
  for (let start = 0; start + 6 <= layers.length; start++) {
    const window = layers.slice(start, start + 6);
    const own = window[2].inner;
    const inOne = differenceOfAll(own, windowGroups(window));
    const inTwo = differenceEx(own, intersectionOfAll(windowGroups(window)));
    assert.ok(totalArea(inTwo) > 1, 'the window changes');
    assert.ok(totalArea(xorEx(inOne, inTwo)) < 1e-3, `window from ${start}`);
  }
  assert.deepEqual(differenceOfAll(layers[0].inner, [layers[1].inner, []]), layers[0].inner);
});
