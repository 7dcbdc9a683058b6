import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChainScratch, chainLoops } from '../../../../appliance/slicer/engine/layers/loops.js';
import type { LayerSegments } from '../../../../appliance/slicer/engine/layers/slice-mesh.js';
import { signedArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';

/** Segments of a closed polygon, each tagged with edge ids so that segment k ends where k+1 starts. */
function ring(points: number[][], firstEdge = 0, shuffle = false): { seg: LayerSegments; edges: number } {
  const n = points.length;
  const order = [...Array(n).keys()];
  if (shuffle) order.reverse();
  const seg: LayerSegments = { count: n, coords: new Float64Array(n * 4), startEdge: new Uint32Array(n), endEdge: new Uint32Array(n) };
  order.forEach((k, s) => {
    const [ax, ay] = points[k];
    const [bx, by] = points[(k + 1) % n];
    seg.coords.set([ax, ay, bx, by], s * 4);
    seg.startEdge[s] = firstEdge + k;
    seg.endEdge[s] = firstEdge + ((k + 1) % n);
  });
  return { seg, edges: firstEdge + n };
}

test('segments chained by edge id form one counter-clockwise loop whatever their order', () => {
  const { seg, edges } = ring(
    [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ],
    0,
    true,
  );
  const r = chainLoops(seg, new ChainScratch(edges));
  assert.equal(r.loops.length, 1);
  assert.equal(r.openChains, 0);
  assert.equal(signedArea(r.loops[0]), 100);
});

test('a crack (missing segment) is closed by gap closing and reported', () => {
  const { seg, edges } = ring([
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
  ]);
  // Drop the last segment: the chain 0→1→2→3 stays open between (0,10) and (0,0).
  const cut: LayerSegments = { count: 3, coords: seg.coords.slice(0, 12), startEdge: seg.startEdge.slice(0, 3), endEdge: seg.endEdge.slice(0, 3) };
  const r = chainLoops(cut, new ChainScratch(edges));
  assert.equal(r.openChains, 1);
  assert.equal(r.loops.length, 1);
  assert.ok(Math.abs(signedArea(r.loops[0]) - 100) < 1e-9);
  assert.ok(Math.abs(r.largestGap - 10) < 1e-9);
});

test('open chains from two halves are joined into one loop', () => {
  // Two open polylines with 0.5 mm gaps at both joints (edge ids do not connect them).
  const a = [
    [0, 0],
    [10, 0],
    [10, 4.75],
  ];
  const b = [
    [10, 5.25],
    [10, 10],
    [0, 10],
    [0, 0.5],
  ];
  const mk = (pts: number[][], base: number) => pts.slice(0, -1).map((p, k) => ({ p, q: pts[k + 1], s: base + k, e: base + k + 1 }));
  const parts = [...mk(a, 0), ...mk(b, 100)];
  const seg: LayerSegments = {
    count: parts.length,
    coords: new Float64Array(parts.length * 4),
    startEdge: new Uint32Array(parts.length),
    endEdge: new Uint32Array(parts.length),
  };
  parts.forEach((x, k) => {
    seg.coords.set([...x.p, ...x.q], k * 4);
    seg.startEdge[k] = x.s;
    seg.endEdge[k] = x.e;
  });
  const r = chainLoops(seg, new ChainScratch(200));
  assert.equal(r.openChains, 2);
  assert.equal(r.loops.length, 1);
  assert.ok(Math.abs(Math.abs(signedArea(r.loops[0])) - 100) < 0.5);
});

test('two separate loops stay separate', () => {
  const a = ring(
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ],
    0,
  );
  const b = ring(
    [
      [5, 5],
      [6, 5],
      [6, 6],
      [5, 6],
    ],
    10,
  );
  const seg: LayerSegments = {
    count: 8,
    coords: Float64Array.from([...a.seg.coords, ...b.seg.coords]),
    startEdge: Uint32Array.from([...a.seg.startEdge, ...b.seg.startEdge]),
    endEdge: Uint32Array.from([...a.seg.endEdge, ...b.seg.endEdge]),
  };
  const r = chainLoops(seg, new ChainScratch(20));
  assert.equal(r.loops.length, 2);
  assert.equal(r.openChains, 0);
});
