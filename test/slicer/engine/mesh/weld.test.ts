import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExactVertexWelder, weldWithinTolerance } from '../../../../appliance/slicer/engine/mesh/weld.js';

describe('ExactVertexWelder', () => {
  it('gives equal float32 points one index and grows past its first table', () => {
    const welder = new ExactVertexWelder(4);
    const ids: number[] = [];
    for (let k = 0; k < 1000; k++) ids.push(welder.add(k % 300, 0.1, -0));
    assert.equal(welder.vertexCount, 300);
    assert.equal(ids[300], ids[0]);
    assert.equal(welder.add(5, 0.1, 0), ids[5]);
    assert.equal(welder.add(5, Math.fround(0.1), 0), ids[5]);
    assert.notEqual(welder.add(5, 0.1000001, 0), ids[5]);
    assert.deepEqual([...welder.vertices().subarray(15, 18)], [5, Math.fround(0.1), 0]);
  });
});

describe('weldWithinTolerance', () => {
  it('merges points within the tolerance on each axis, also across cell borders', () => {
    const points = Float32Array.from([
      0.99995,
      0,
      0, // cell 9999 at 1e-4
      1.00004,
      0,
      0, // cell 10000: merged with the first across the border
      1.0003,
      0,
      0, // too far
      -0.00002,
      5,
      5,
      0.00003,
      5,
      5, // across zero
    ]);
    const { vertices, remap } = weldWithinTolerance(points, 1e-4);
    assert.deepEqual([...remap], [0, 0, 1, 2, 2]);
    assert.equal(vertices.length, 9);
    assert.equal(vertices[0], Math.fround(0.99995));
  });

  it('keeps points that are close on one axis only', () => {
    const { remap } = weldWithinTolerance(Float32Array.from([0, 0, 0, 0, 0, 0.001, 0, 0.00005, 0]), 1e-4);
    assert.deepEqual([...remap], [0, 1, 0]);
  });
});
