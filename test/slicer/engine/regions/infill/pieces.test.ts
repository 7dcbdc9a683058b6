import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PiecesBuilder, piecePath } from '../../../../../appliance/slicer/engine/regions/infill/pieces.js';

test('the builder grows and hands back exactly what was added', () => {
  const b = new PiecesBuilder();
  for (let i = 0; i < 100; i++) b.add(Float64Array.of(i, 0, i, 1), 0, i, 1, i + 0.5, i % 3, i, -i, i);
  assert.equal(b.count, 100);
  const p = b.finish();
  assert.equal(p.count, 100);
  assert.equal(p.start.length, 101);
  assert.deepEqual(Array.from(piecePath(p, 57)), [57, 0, 57, 1]);
  assert.equal(p.endRing.length, 200);
  assert.deepEqual([p.endRing[198], p.endRing[199], p.endArc[198], p.endArc[199]], [0, 1, 99, 99.5]);
  assert.deepEqual([p.family[99], p.row[99], p.lo[99], p.hi[99]], [0, 99, -99, 99]);
});

test('swept pieces and given paths share one array of points, each piece its own span', () => {
  const b = new PiecesBuilder();
  b.reserve(2);
  b.piece(0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 5);
  b.add(Float64Array.of(1, 1, 2, 2, 3, 1), -1, 0, -1, 0, 0, 1, 0, 0);
  // Past the room reserved, and past the first storage of points (64 doubles).
  for (let i = 0; i < 40; i++) b.piece(i, 2, i + 1, 2, 0, i, 0, i + 1, 1, 2 + i, i, i + 1);
  const p = b.finish();
  assert.equal(p.count, 42);
  assert.deepEqual(Array.from(piecePath(p, 0)), [0, 0, 5, 0]);
  assert.deepEqual(Array.from(piecePath(p, 1)), [1, 1, 2, 2, 3, 1]);
  assert.deepEqual(Array.from(piecePath(p, 41)), [39, 2, 40, 2]);
  assert.equal(p.coords.length, 4 + 6 + 40 * 4);
  assert.deepEqual([p.row[41], p.lo[41], p.hi[41], p.endArc[83]], [41, 39, 40, 40]);
});

test('a cleared builder starts again with no pieces and gives what a new one gives', () => {
  const fill = (b: PiecesBuilder, count: number) => {
    for (let i = 0; i < count; i++) b.piece(i, 0, i, 1, 0, i, 1, i + 0.5, 0, i, 0, 1);
    return b.finish();
  };
  const reused = new PiecesBuilder();
  fill(reused, 300);
  reused.clear();
  assert.equal(reused.count, 0);
  const again = fill(reused, 5);
  const fresh = fill(new PiecesBuilder(), 5);
  assert.equal(again.count, 5);
  assert.deepEqual(Array.from(again.start), Array.from(fresh.start));
  assert.deepEqual(Array.from(again.coords), Array.from(fresh.coords));
  assert.deepEqual([Array.from(again.endArc), Array.from(again.row)], [Array.from(fresh.endArc), Array.from(fresh.row)]);
});
