import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Boundary } from '../../../../../appliance/slicer/engine/regions/infill/boundary.js';
import { hatch } from '../../../../../appliance/slicer/engine/regions/infill/hatch.js';
import { monotonicIsland, orderMonotonic } from '../../../../../appliance/slicer/engine/regions/infill/monotonic.js';
import { PiecesBuilder } from '../../../../../appliance/slicer/engine/regions/infill/pieces.js';
import type { ExPolygon } from '../../../../../appliance/slicer/engine/geometry/types.js';
import { rect } from './shapes.js';

function island(ex: ExPolygon, connect: boolean) {
  const boundary = new Boundary(ex);
  const builder = new PiecesBuilder();
  hatch(boundary, 0, { kind: 'grid', step: 1 }, 0, builder);
  return monotonicIsland(boundary, builder.finish(), connect, 2.5);
}

/** Rows (y) of the horizontal lines of the paths, in print order, with their x extent. */
function printedRows(paths: Float64Array[]): { y: number; lo: number; hi: number }[] {
  const out: { y: number; lo: number; hi: number }[] = [];
  for (const p of paths) {
    for (let k = 0; k + 2 < p.length; k += 2) {
      if (p[k + 1] === p[k + 3] && p[k] !== p[k + 2]) out.push({ y: p[k + 1], lo: Math.min(p[k], p[k + 2]), hi: Math.max(p[k], p[k + 2]) });
    }
  }
  return out;
}

test('around a hole the fill splits into chains that wait for the rows below them', () => {
  const ex = { contour: rect(0, 0.5, 20, 20.5), holes: [rect(6, 6.5, 14, 14.5, true)] };
  const isl = island(ex, true);
  assert.equal(isl.chains.length, 4, 'below the hole, beside it on each side, above it');
  for (let k = 0; k < isl.edges.length; k += 2) {
    const before = isl.chains[isl.edges[k]].points;
    const after = isl.chains[isl.edges[k + 1]].points;
    assert.ok(Math.min(before[1], before[before.length - 1]) < Math.min(after[1], after[after.length - 1]));
  }
  const rows = printedRows(orderMonotonic([isl], 0, 0, 0.45));
  rows.forEach((upper, i) => {
    for (const lower of rows.slice(i + 1)) {
      const touching = lower.y === upper.y - 1 && lower.lo < upper.hi && upper.lo < lower.hi;
      assert.ok(!touching, `row ${lower.y} printed after row ${upper.y} above it`);
    }
  });
});

test('without joins every line is its own path, still in monotonic order, starting near the nozzle', () => {
  const isl = island({ contour: rect(0, 0.5, 10, 10.5), holes: [] }, false);
  const paths = orderMonotonic([isl], 11, 0, 0.45);
  assert.equal(paths.length, 10);
  assert.deepEqual(
    paths.map((p) => p[1]),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  assert.equal(paths[0][0], 10, 'the first line starts at its end nearer the nozzle');
  assert.equal(paths[1][0], 0, 'and the next one where the previous ended');
});

test('short chains are skipped but still release the chains above them', () => {
  const tip = { contour: Float64Array.of(0, 0.5, 10, 0.5, 10, 5.5, 5.2, 5.5, 5.2, 6.2, 4.8, 6.2, 4.8, 5.5, 0, 5.5), holes: [] };
  const isl = island(tip, false);
  const paths = orderMonotonic([isl], 0, 0, 0.45);
  assert.equal(paths.length, isl.chains.length - 1, 'the 0.4 mm line at y = 6 is dropped');
  assert.ok(paths.every((p) => p[1] <= 5));
});

test('islands are interleaved nearest-first', () => {
  const a = island({ contour: rect(0, 0.5, 5, 3.5), holes: [] }, true);
  const b = island({ contour: rect(50, 0.5, 55, 3.5), holes: [] }, true);
  const paths = orderMonotonic([a, b], 60, 0, 0.45);
  assert.equal(paths.length, 2);
  assert.ok(paths[0][0] >= 50, 'the island near the nozzle first');
});
