import assert from 'node:assert/strict';
import { test } from 'node:test';
import { thickenPolylines } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { totalArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { midline, skinGapFill } from '../../../../appliance/slicer/engine/regions/skin-gaps.js';
import type { Extrusion } from '../../../../appliance/slicer/engine/toolpath/types.js';

const W = 0.45;
const H = 0.2;

/** Lines along X every `spacing` mm from y0 up to y1 over x 0..20. */
function rows(y0: number, y1: number, spacing: number): Extrusion[] {
  const out: Extrusion[] = [];
  for (let y = y0; y <= y1 + 1e-9; y += spacing) {
    out.push({ role: 'top-surface', points: Float64Array.of(0, y, 20, y), loop: false, width: W, height: H, mm3PerMm: 0.08 });
  }
  return out;
}

/** A crescent between two circular arcs from (0, 0) to (20, 0), bulging up to `bulge` mm at x = 10. */
function crescent(bulge: number): ExPolygon {
  const points: number[] = [];
  for (let k = 0; k <= 40; k++) points.push(k / 2, 0);
  for (let k = 39; k > 0; k--) {
    const x = k / 2;
    points.push(x, bulge * (1 - ((x - 10) / 10) ** 2));
  }
  return { contour: Float64Array.from(points), holes: [] };
}

test('the midline of a crescent runs from tip to tip halfway between its sides', () => {
  const line = midline(crescent(0.4).contour);
  const n = line.length / 2;
  const ends = [
    [line[0], line[1]],
    [line[line.length - 2], line[line.length - 1]],
  ].sort((a, b) => a[0] - b[0]);
  assert.deepEqual(
    ends.map(([x, y]) => [Math.round(x * 100) / 100, Math.round(y * 100) / 100]),
    [
      [0, 0],
      [20, 0],
    ],
  );
  for (let k = 0; k < n; k++) {
    const [x, y] = [line[k * 2], line[k * 2 + 1]];
    const half = (0.4 * (1 - ((x - 10) / 10) ** 2)) / 2;
    assert.ok(Math.abs(y - half) < 0.03, `(${x.toFixed(2)}, ${y.toFixed(3)}) is ${half.toFixed(3)} up at its middle`);
  }
});

test('a crescent that straight lines leave along a curved edge gets one gap-fill line with its area of plastic', () => {
  // A region 2 mm high with a curved top: lines every 0.42 mm up to y = 2 leave the cap above them open.
  const top: number[] = [0, 0, 20, 0];
  for (let k = 40; k >= 0; k--) top.push(k / 2, 2 + 0.35 * (1 - ((k / 2 - 10) / 10) ** 2));
  const area: ExPolygon[] = [{ contour: Float64Array.from(top), holes: [] }];
  const lines = rows(0.2, 2, 0.45);
  const gaps = skinGapFill(area, lines, W, H);
  assert.equal(gaps.length, 1);
  const [gap] = gaps;
  assert.equal(gap.role, 'gap-fill');
  assert.ok(gap.width > 0.1 && gap.width <= W, `width ${gap.width}`);
  const before = totalArea(
    thickenPolylines(
      lines.map((e) => e.points),
      W,
    ),
  );
  const after = totalArea(
    thickenPolylines(
      [...lines, ...gaps].map((e) => e.points),
      W,
    ),
  );
  assert.ok(after - before > 2, `the gap fill covers ${(after - before).toFixed(2)} mm² more`);
});

test('a region its lines cover, and cusps under 0.1 mm between line ends, get no gap fill', () => {
  const area: ExPolygon[] = [{ contour: Float64Array.of(0, 0, 20, 0, 20, 2, 0, 2), holes: [] }];
  assert.deepEqual(skinGapFill(area, rows(0.2, 1.8, 0.4), W, H), []);
  // Lines at 45° ending on a straight edge leave a row of small cusps along it.
  const slanted: Extrusion[] = [];
  for (let x = -2; x < 20.5; x += 0.6) {
    slanted.push({ role: 'top-surface', points: Float64Array.of(x, 0.1, x + 1.8, 1.9), loop: false, width: W, height: H, mm3PerMm: 0.08 });
  }
  assert.deepEqual(skinGapFill(area, slanted, W, H), []);
});

test('nothing to do without lines or area', () => {
  assert.deepEqual(skinGapFill([], rows(0, 1, 0.4), W, H), []);
  assert.deepEqual(skinGapFill([{ contour: Float64Array.of(0, 0, 1, 0, 1, 1), holes: [] }], [], W, H), []);
});

test('a gap around an island of cover gets its middle line only where the gap is, not across the island', () => {
  // A 2 mm square left open around a 1 mm covered square in its middle: the lines cover only the middle.
  const area: ExPolygon[] = [{ contour: Float64Array.of(0, 0, 2, 0, 2, 2, 0, 2), holes: [] }];
  const middle: Extrusion[] = [0.75, 1, 1.25].map((y) => ({
    role: 'top-surface',
    points: Float64Array.of(0.75, y, 1.25, y),
    loop: false,
    width: 0.3,
    height: H,
    mm3PerMm: 0.05,
  }));
  const gaps = skinGapFill(area, middle, 0.3, H);
  assert.ok(gaps.length > 0);
  for (const gap of gaps) {
    for (let k = 0; k < gap.points.length; k += 2) {
      const [x, y] = [gap.points[k], gap.points[k + 1]];
      assert.ok(!(x > 0.8 && x < 1.2 && y > 0.8 && y < 1.2), `(${x.toFixed(2)}, ${y.toFixed(2)}) lies on the covered island`);
    }
  }
});
