import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Boundary } from '../../../../../appliance/slicer/engine/regions/infill/boundary.js';
import { hatch } from '../../../../../appliance/slicer/engine/regions/infill/hatch.js';
import { buildChains, linkPieces, noLinks } from '../../../../../appliance/slicer/engine/regions/infill/link.js';
import { PiecesBuilder, piecePath } from '../../../../../appliance/slicer/engine/regions/infill/pieces.js';
import { polylineLength } from '../../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../../appliance/slicer/engine/geometry/types.js';
import { rect } from './shapes.js';

function setup(ex: ExPolygon, angleDeg: number, step: number, kind: 'grid' | 'fit' = 'fit') {
  const boundary = new Boundary(ex);
  const builder = new PiecesBuilder();
  hatch(boundary, (angleDeg * Math.PI) / 180, { kind, step }, 0, builder);
  return { boundary, pieces: builder.finish() };
}

test('neighbouring rows of a rectangle join into one zig-zag along its sides', () => {
  const { boundary, pieces } = setup({ contour: rect(0, 0, 20, 10), holes: [] }, 0, 0.5);
  const links = linkPieces(boundary, pieces, { maxArc: 1.25, neighbourRowsOnly: true });
  const { chains, chainOf } = buildChains(boundary, pieces, links);
  assert.equal(chains.length, 1);
  assert.ok(chainOf.every((c) => c === 0));
  const p = chains[0].points;
  assert.equal(p.length, pieces.count * 4, 'each piece once, links add no corner vertices here');
  for (let k = 0; k + 4 < p.length; k += 4) {
    assert.ok(Math.abs(p[k + 1] - p[k + 3]) < 1e-12, 'a row');
    assert.ok(Math.abs(p[k + 3] - p[k + 5]) > 0.4, 'then a step to the next row');
    assert.ok(Math.abs(p[k + 2] - p[k + 4]) < 1e-12, 'along the side of the rectangle');
  }
  let rowsLength = 0;
  for (let i = 0; i < pieces.count; i++) rowsLength += polylineLength(piecePath(pieces, i));
  assert.ok(Math.abs(polylineLength(p) - rowsLength - 10 + 2e-3) < 1e-6, 'links add just the side lengths');
});

/** Pieces given as [x0, y0, x1, y1, row] lines between boundary points. */
function handMade(boundary: Boundary, lines: number[][]) {
  const builder = new PiecesBuilder();
  for (const [x0, y0, x1, y1, row] of lines) {
    const a = boundary.locate(x0, y0, 1e-9)!;
    const b = boundary.locate(x1, y1, 1e-9)!;
    builder.add(Float64Array.of(x0, y0, x1, y1), a.ring, a.arc, b.ring, b.arc, 0, row, 0, 0);
  }
  return builder.finish();
}

test('links walk around corners of the boundary', () => {
  const boundary = new Boundary({ contour: rect(0, 0, 10, 10), holes: [] });
  const pieces = handMade(boundary, [
    [0, 1, 9, 10, 1],
    [1, 0, 10, 9, 0],
  ]);
  const { chains } = buildChains(boundary, pieces, linkPieces(boundary, pieces, { maxArc: 3, neighbourRowsOnly: true }));
  assert.equal(chains.length, 1);
  const p = Array.from(chains[0].points);
  const corner = p.findIndex((v, k) => k % 2 === 0 && v === 10 && p[k + 1] === 10);
  assert.equal(corner, 4, 'the link from (10, 9) to (9, 10) turns through the corner (10, 10)');
  assert.equal(p.length, 10);
});

test('nothing joins when the walk along the boundary is too long', () => {
  const { boundary, pieces } = setup({ contour: rect(0, 0, 20, 10), holes: [] }, 0, 0.5);
  const { chains } = buildChains(boundary, pieces, linkPieces(boundary, pieces, { maxArc: 0.4, neighbourRowsOnly: true }));
  assert.equal(chains.length, pieces.count);
  assert.equal(buildChains(boundary, pieces, noLinks(pieces.count)).chains.length, pieces.count);
});

test('solid fills join only neighbouring rows; sparse fills may join any ends next to each other', () => {
  const boundary = new Boundary({ contour: rect(0, 0, 10, 10), holes: [] });
  const pieces = handMade(boundary, [
    [0, 1, 10, 1, 0],
    [0, 6, 10, 6, 5],
  ]);
  assert.deepEqual(Array.from(linkPieces(boundary, pieces, { maxArc: 30, neighbourRowsOnly: true }).partner), [-1, -1, -1, -1]);
  const sparse = linkPieces(boundary, pieces, { maxArc: 30, neighbourRowsOnly: false });
  assert.equal(sparse.partner.filter((q) => q >= 0).length, 2, 'one join between the two pieces');
});

test('a monotonic join climbs one row and only into a piece whose only lower neighbour it is', () => {
  const { boundary, pieces } = setup({ contour: rect(0, 0, 20, 20), holes: [rect(6, 6, 14, 14, true)] }, 0, 1, 'grid');
  const solePred = new Int32Array(pieces.count).fill(-1);
  for (let q = 0; q < pieces.count; q++) {
    const below = [...Array(pieces.count).keys()].filter(
      (p) => pieces.row[p] + 1 === pieces.row[q] && pieces.lo[p] < pieces.hi[q] && pieces.lo[q] < pieces.hi[p],
    );
    if (below.length === 1) solePred[q] = below[0];
  }
  const links = linkPieces(boundary, pieces, { maxArc: 3, neighbourRowsOnly: true, solePred });
  const ups = new Int32Array(pieces.count);
  for (let e = 0; e < pieces.count * 2; e++) {
    const q = links.partner[e];
    if (q < 0) continue;
    const [lo, hi] = pieces.row[e >> 1] < pieces.row[q >> 1] ? [e >> 1, q >> 1] : [q >> 1, e >> 1];
    assert.equal(solePred[hi], lo);
    if (lo === e >> 1) ups[lo]++;
  }
  assert.ok(ups.every((n) => n <= 1));
});
