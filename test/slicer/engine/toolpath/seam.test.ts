import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseSeam, startLoopInto, trimEndInPlace, type SeamContext } from '../../../../appliance/slicer/engine/toolpath/seam.js';

// An L-shaped outline, counter-clockwise, first point repeated at the end. Its one concave corner is (5,5).
const L = Float64Array.from([0, 0, 10, 0, 10, 5, 5, 5, 5, 10, 0, 10, 0, 0]);
const ctx = (over: Partial<SeamContext>): SeamContext => ({ mode: 'aligned', x: 0, y: 0, previous: null, rearY: 10, layer: 3, ...over });

test('nearest picks the vertex closest to the nozzle', () => {
  assert.equal(chooseSeam(L, ctx({ mode: 'nearest', x: 11, y: -1 })), 1);
});

test('aligned hides the seam in the concave corner when it is near the previous seam', () => {
  assert.equal(chooseSeam(L, ctx({ mode: 'aligned', previous: [6, 6] })), 3);
});

test('aligned follows the previous layer seam over a distant corner', () => {
  assert.equal(chooseSeam(L, ctx({ mode: 'aligned', previous: [0, 0] })), 0);
});

test('back picks a rearmost vertex', () => {
  const i = chooseSeam(L, ctx({ mode: 'back' }));
  assert.equal(L[i * 2 + 1], 10);
});

test('random is deterministic per layer and stays in range', () => {
  const a = chooseSeam(L, ctx({ mode: 'random', layer: 7 }));
  assert.equal(chooseSeam(L, ctx({ mode: 'random', layer: 7 })), a);
  assert.ok(a >= 0 && a < 6);
});

test('startLoopInto rotates and keeps the loop closed, in a buffer longer than the loop', () => {
  const r = new Float64Array(L.length + 4).fill(-1);
  startLoopInto(L, 3, r);
  assert.deepEqual([...r.subarray(0, 2)], [5, 5]);
  assert.deepEqual([...r.subarray(L.length - 2, L.length)], [5, 5]);
  assert.deepEqual([...r.subarray(L.length)], [-1, -1, -1, -1], 'nothing is written past the loop');
  startLoopInto(L, 0, r);
  assert.deepEqual([...r.subarray(0, L.length)], [...L]);
});

test('trimEndInPlace shortens the path by the gap', () => {
  const line = Float64Array.from([0, 0, 10, 0, 10, 10]);
  assert.equal(trimEndInPlace(line, line.length, 2), 6);
  assert.deepEqual([...line], [0, 0, 10, 0, 10, 8]);
  const again = Float64Array.from([0, 0, 10, 0, 10, 10]);
  assert.equal(trimEndInPlace(again, again.length, 12), 4);
  assert.deepEqual([...again.subarray(0, 2 * 2)], [0, 0, 8, 0]);
  assert.equal(trimEndInPlace(again, 4, 50), 4, 'one segment stays, however short');
});

test('the seam is the first vertex of best score however many vertices the search passes over, in every mode', () => {
  // Score as the seam rules define it: a turn's worth (concave 3 mm, convex 1 mm per right angle,
  // up to 1.5 right angles) less the distance to the target.
  const score = (pts: Float64Array, i: number, tx: number, ty: number) => {
    const n = pts.length / 2 - 1;
    const [px, py] = [pts[((i + n - 1) % n) * 2], pts[((i + n - 1) % n) * 2 + 1]];
    const [cx, cy, nx, ny] = [pts[i * 2], pts[i * 2 + 1], pts[((i + 1) % n) * 2], pts[((i + 1) % n) * 2 + 1]];
    const [ax, ay, bx, by] = [cx - px, cy - py, nx - cx, ny - cy];
    const la = Math.sqrt(ax * ax + ay * ay);
    const lb = Math.sqrt(bx * bx + by * by);
    const cross = (ax * by - ay * bx) / (la * lb);
    const turn = Math.atan2(Math.abs(cross), (ax * bx + ay * by) / (la * lb)) / (Math.PI / 2);
    const corner = Math.min(turn, 1.5) * (cross < 0 ? 3 : 1);
    return corner - (Number.isNaN(tx) ? ty - cy : Math.sqrt((cx - tx) ** 2 + (cy - ty) ** 2));
  };
  let seed = 17;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let shape = 0; shape < 200; shape++) {
    // A star-shaped ring: concave and convex corners at random radii.
    const n = 5 + Math.floor(random() * 60);
    const ring: number[] = [];
    for (let k = 0; k < n; k++) {
      const angle = (2 * Math.PI * k) / n;
      const radius = 5 + random() * 15;
      ring.push(radius * Math.cos(angle), radius * Math.sin(angle));
    }
    ring.push(ring[0], ring[1]);
    const pts = Float64Array.from(ring);
    const at = { x: (random() - 0.5) * 40, y: (random() - 0.5) * 40 };
    const targets: [SeamContext, number, number][] = [
      [ctx({ mode: 'nearest', ...at }), at.x, at.y],
      [ctx({ mode: 'aligned', previous: [at.y, at.x] }), at.y, at.x],
      [ctx({ mode: 'aligned', ...at, rearY: 20 }), at.x, 20],
      [ctx({ mode: 'back', rearY: 20 }), Number.NaN, 20],
    ];
    for (const [c, tx, ty] of targets) {
      let best = 0;
      for (let i = 1; i < n; i++) if (score(pts, i, tx, ty) > score(pts, best, tx, ty)) best = i;
      assert.equal(chooseSeam(pts, c), best, `shape ${shape}, ${c.mode}`);
    }
  }
});
