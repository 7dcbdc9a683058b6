import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fill } from '../../../../../appliance/slicer/engine/regions/infill/fill.js';
import { polylineLength, totalArea } from '../../../../../appliance/slicer/engine/geometry/polygon.js';
import { AppError } from '../../../../../appliance/common/errors.js';
import type { FillPattern } from '../../../../../appliance/slicer/engine/regions/infill/types.js';
import { coverage, pointsOutside, rect, request, segmentsAlong, testAreas, volume } from './shapes.js';

const areas = testAreas(40);
const SPARSE: FillPattern[] = ['zig-zag', 'line', 'grid', 'alignedrectilinear', 'triangles', 'gyroid'];
const SOLID: FillPattern[] = ['monotonic', 'monotonicline', 'zig-zag', 'alignedrectilinear', 'line', 'concentric'];

for (const [name, area] of Object.entries(areas)) {
  for (const pattern of SOLID) {
    test(`solid ${pattern} on ${name}: inside the area and covering at least 97 % of it`, () => {
      const req = request(area, pattern, 1);
      const out = fill(req);
      assert.ok(out.length > 0);
      assert.deepEqual(pointsOutside(out, area), []);
      const covered = coverage(out, area);
      assert.ok(covered >= 0.97, `coverage ${covered}`);
      for (const e of out) {
        assert.equal(e.role, 'solid-infill');
        assert.equal(e.loop, pattern === 'concentric');
        assert.equal(e.width, req.width);
        assert.equal(e.mm3PerMm, req.mm3PerMm);
        assert.ok(polylineLength(e.points) >= req.width / 4, 'solid fragments shorter than a quarter width are dropped');
      }
    });
  }
  for (const pattern of SPARSE) {
    for (const density of [0.15, 0.4]) {
      test(`sparse ${pattern} ${density * 100} % on ${name}: inside, volume matches the density`, () => {
        // Unjoined, so the volume measures the line spacing alone; joins add boundary walks (tested below).
        const req = request(area, pattern, density, { connect: false, layerIndex: 3, z: 1.37 });
        const out = fill(req);
        assert.deepEqual(pointsOutside(out, area), []);
        const expected = density * totalArea(area) * req.height;
        // A gyroid section's length changes with z (by about ±15 %): density is a mean over layers.
        const ratio = pattern === 'gyroid' ? meanGyroidVolume(req) / expected : volume(out) / expected;
        assert.ok(Math.abs(ratio - 1) <= 0.1, `volume ratio ${ratio}`);
        const joined = fill({ ...req, connect: true });
        assert.deepEqual(pointsOutside(joined, area), []);
      });
    }
  }
}

function meanGyroidVolume(req: ReturnType<typeof request>): number {
  let sum = 0;
  const layers = 100;
  for (let i = 1; i <= layers; i++) sum += volume(fill({ ...req, layerIndex: i, z: i * req.height }));
  return sum / layers;
}

test('joined sparse fills stay within 10 % of the density on a large square', () => {
  const area = testAreas(100).square;
  for (const pattern of ['zig-zag', 'grid', 'triangles', 'gyroid'] as const) {
    const req = request(area, pattern, 0.15);
    const v = pattern === 'gyroid' ? meanGyroidVolume(req) : volume(fill(req));
    const ratio = v / (0.15 * totalArea(area) * req.height);
    assert.ok(Math.abs(ratio - 1) <= 0.1, `${pattern}: volume ratio ${ratio}`);
  }
});

test('joining lines along the boundary reduces the number of separate paths', () => {
  for (const [name, area] of Object.entries(areas)) {
    for (const [pattern, density] of [
      ['zig-zag', 0.15],
      ['zig-zag', 1],
      ['grid', 0.2],
      ['gyroid', 0.2],
      ['monotonic', 1],
    ] as const) {
      const loose = fill(request(area, pattern, density, { connect: false })).length;
      const joined = fill(request(area, pattern, density)).length;
      assert.ok(joined < loose, `${pattern} ${density} on ${name}: ${joined} joined vs ${loose} loose`);
    }
  }
  assert.equal(fill(request(areas.square, 'zig-zag', 1)).length, 1, 'a solid square is one zig-zag');
  assert.equal(fill(request(areas.square, 'zig-zag', 0.15)).length, 1, 'a sparse square is one zig-zag');
});

test('line and monotonicline never join: every path is one straight line', () => {
  for (const pattern of ['line', 'monotonicline'] as const) {
    for (const e of fill(request(areas['square with hole'], pattern, 1))) assert.equal(e.points.length, 4);
  }
});

test('zig-zag turns 90° every layer, so layers n and n + 2 are identical', () => {
  const area = areas['concave L'];
  const at = (layerIndex: number) => fill(request(area, 'zig-zag', 0.15, { layerIndex, z: 0.2 * layerIndex + 0.2 })).map((e) => Array.from(e.points));
  assert.deepEqual(at(4), at(6));
  assert.deepEqual(at(5), at(7));
  assert.notDeepEqual(at(4), at(5));
  const odd = fill(request(area, 'zig-zag', 0.15, { layerIndex: 5 }));
  assert.ok(segmentsAlong(odd, 135, 1).length > 0);
  assert.equal(segmentsAlong(odd, 45, 1).length, 0);
});

test('alignedrectilinear keeps one direction on every layer', () => {
  const at = (layerIndex: number) => fill(request(areas.square, 'alignedrectilinear', 0.2, { layerIndex })).map((e) => Array.from(e.points));
  assert.deepEqual(at(0), at(1));
  assert.deepEqual(at(1), at(2));
});

test('sparse lines lie on one global grid, so separate islands and objects line up', () => {
  const req = request(areas['two islands'], 'zig-zag', 0.15);
  const step = req.spacing / req.density;
  for (const island of req.area) {
    const lines = segmentsAlong(fill({ ...req, area: [island] }), 45, 1);
    assert.ok(lines.length > 3);
    for (const l of lines) {
      const k = l.y / step;
      assert.ok(Math.abs(k - Math.round(k)) < 1e-6, `line at y' = ${l.y} is not on the grid`);
    }
  }
});

test('grid draws both directions on every layer and triangles three, with the spacing multiplied', () => {
  const sq = testAreas(60).square;
  const grid = fill(request(sq, 'grid', 0.2, { connect: false }));
  const a = segmentsAlong(grid, 45, 1);
  const b = segmentsAlong(grid, 135, 1);
  assert.ok(a.length > 0 && b.length > 0);
  const ys = [...new Set(a.map((l) => Math.round(l.y * 1e6) / 1e6))].sort((p, q) => p - q);
  assert.ok(Math.abs(ys[1] - ys[0] - (2 * request(sq, 'grid', 0.2).spacing) / 0.2) < 1e-6);
  const tri = fill(request(sq, 'triangles', 0.2, { connect: false }));
  for (const angle of [45, 105, 165]) assert.ok(segmentsAlong(tri, angle, 1).length > 0, `triangles at ${angle}°`);
});

test('solid lines are spread so a whole number of spacings spans the area', () => {
  const area = [{ contour: rect(0, 0, 30, 10.1), holes: [] }];
  const req = request(area, 'monotonicline', 1, { angle: 0 });
  const ys = fill(req)
    .map((e) => e.points[1])
    .sort((p, q) => p - q);
  const n = Math.round(10.1 / req.spacing);
  assert.equal(ys.length, n + 1);
  assert.ok(ys[0] < 0.01 && ys[ys.length - 1] > 10.09, 'first and last lines run along the area edges');
  const gaps = ys.slice(1).map((y, i) => y - ys[i]);
  for (const g of gaps) assert.ok(Math.abs(g - gaps[0]) < 1e-9);
  assert.ok(Math.abs(gaps[0] - req.spacing) < req.spacing * 0.05);
});

test('monotonic prints every line after the lines below it that it touches', () => {
  for (const [name, area] of Object.entries(areas)) {
    for (const pattern of ['monotonic', 'monotonicline'] as const) {
      const req = request(area, pattern, 1, { angle: 30 });
      const lines = segmentsAlong(fill(req), 30, 0.5);
      const rows = [...new Set(lines.map((l) => Math.round(l.y * 1e4)))].sort((p, q) => p - q);
      const rowOf = (y: number) => rows.indexOf(Math.round(y * 1e4));
      for (const upper of lines) {
        for (const lower of lines) {
          if (rowOf(lower.y) + 1 !== rowOf(upper.y) || lower.hi <= upper.lo || upper.hi <= lower.lo) continue;
          assert.ok(lower.order < upper.order, `${pattern} on ${name}: a line is printed before the one below it`);
        }
      }
    }
  }
  const lines = segmentsAlong(fill(request(areas.square, 'monotonic', 1, { angle: 30 })), 30, 0.5);
  for (let k = 1; k < lines.length; k++) assert.ok(lines[k].y >= lines[k - 1].y, 'a convex area is one sweep');
});

test('concentric fills with closed loops one spacing apart', () => {
  const req = request([{ contour: rect(0, 0, 20, 20), holes: [] }], 'concentric', 1);
  const out = fill(req);
  for (const e of out) {
    assert.equal(e.loop, true);
    assert.deepEqual([e.points[0], e.points[1]], [e.points[e.points.length - 2], e.points[e.points.length - 1]]);
  }
  const perimeters = out.map((e) => polylineLength(e.points));
  for (let k = 1; k < perimeters.length; k++) assert.ok(Math.abs(perimeters[k - 1] - perimeters[k] - 8 * req.spacing) < 1e-3);
});

test('printing starts near the given start point', () => {
  const out = fill(request(areas['two islands'], 'grid', 0.2, { start: [100, 100] }));
  const far = fill(request(areas['two islands'], 'grid', 0.2, { start: [-100, -100] }));
  const first = (o: typeof out) => [o[0].points[0], o[0].points[1]];
  const d = ([x, y]: number[], [sx, sy]: number[]) => Math.hypot(x - sx, y - sy);
  assert.ok(d(first(out), [100, 100]) < d(first(far), [100, 100]));
  assert.ok(d(first(far), [-100, -100]) < d(first(out), [-100, -100]));
});

test('empty areas and zero density give nothing', () => {
  assert.deepEqual(fill(request([], 'grid', 0.2)), []);
  assert.deepEqual(fill(request(areas.square, 'grid', 0)), []);
});

test('bad requests are AppErrors naming the field', () => {
  const bad = [
    request(areas.square, 'honeycomb' as FillPattern, 0.2),
    request(areas.square, 'grid', 1.5),
    request(areas.square, 'grid', Number.NaN),
    request(areas.square, 'grid', 0.2, { spacing: 0 }),
    request(areas.square, 'grid', 0.2, { width: -1 }),
  ];
  for (const req of bad) {
    assert.throws(
      () => fill(req),
      (err: unknown) => err instanceof AppError && err.code === 'ERR_INVALID_SETTING' && err.status === 400,
    );
  }
});
