import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PiecesBuilder } from '../../../../../appliance/slicer/engine/regions/infill/pieces.js';

test('the builder grows and hands back exactly what was added', () => {
  const b = new PiecesBuilder();
  for (let i = 0; i < 100; i++) b.add(Float64Array.of(i, 0, i, 1), 0, i, 1, i + 0.5, i % 3, i, -i, i);
  assert.equal(b.count, 100);
  const p = b.finish();
  assert.equal(p.count, 100);
  assert.equal(p.paths.length, 100);
  assert.equal(p.endRing.length, 200);
  assert.deepEqual([p.endRing[198], p.endRing[199], p.endArc[198], p.endArc[199]], [0, 1, 99, 99.5]);
  assert.deepEqual([p.family[99], p.row[99], p.lo[99], p.hi[99]], [0, 99, -99, 99]);
});
