import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { differenceEx, intersectionEx, offsetEx, unionExs } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { hashExPolygons } from '../../../../appliance/slicer/engine/geometry/hash.js';
import { totalArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import {
  classifyFill,
  openedBy,
  surfaceMasks,
  type HashedLayer,
  type VerticalShellRule,
} from '../../../../appliance/slicer/engine/regions/surfaces.js';

const square = (x0: number, y0: number, x1: number, y1: number): ExPolygon[] => [
  { contour: Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1), holes: [] },
];
const layer = (islands: ExPolygon[]): HashedLayer => ({ islands, hash: hashExPolygons(islands) });
const inner = (l: HashedLayer) => offsetEx(l.islands, -1);
const shells = (mode: VerticalShellRule['mode'], shellReach = 0): VerticalShellRule => ({
  mode,
  shellReach,
  inner,
  wallRing: (l) => differenceEx(l.islands, inner(l)),
});
const options = { firstLayer: false, minSparseArea: 0, bridgeAnchor: 3, topMargin: 0, shellMargin: 0, solidInfill: false, minSolidWidth: 0.1 };
const near = (a: number, b: number, eps = 1e-6) => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

test('identical neighbours (a prism) give no surfaces and no shells, without any boolean', () => {
  const l = layer(square(0, 0, 20, 20));
  const copy = layer(square(0, 0, 20, 20));
  const m = surfaceMasks(l, [copy, copy, copy], [copy, copy], 3, 2, shells('ensure_all'));
  assert.deepEqual([m.top, m.bottom, m.topShell, m.bottomShell, m.verticalShell], [[], [], [], [], []]);
});

test('the part of a layer the next one does not cover is top, and the shells reach the next layers down', () => {
  const l = layer(square(0, 0, 20, 20));
  const smaller = layer(square(0, 0, 10, 20));
  const m = surfaceMasks(l, [smaller, smaller, smaller], [l], 3, 1, null);
  near(totalArea(m.top), 200);
  near(totalArea(m.topShell), 200);
  assert.equal(m.bottom.length, 0);
});

test('near the top of the object (fewer layers above than the shell count) the whole layer is shell', () => {
  const l = layer(square(0, 0, 20, 20));
  const m = surfaceMasks(l, [l], [l, l, l], 3, 3, null);
  near(totalArea(m.topShell), 400);
});

test('on a steep side the walls of the layer above make solid infill under them', () => {
  const l = layer(square(0, 0, 20, 20));
  const shifted = layer(square(0.3, 0, 20, 20));
  const m = surfaceMasks(l, [shifted, shifted], [l], 2, 1, shells('ensure_moderate'));
  // The next layer's 1 mm wall band, from x 0.3 to 1.3 on its left side, lies on this layer.
  assert.ok(m.verticalShell.length > 0);
  const fill = offsetEx(l.islands, -1);
  const regions = classifyFill(fill, m, options);
  assert.ok(totalArea(regions.solid) > 0, 'solid under the shifted wall');
  near(totalArea(regions.solid) + totalArea(regions.sparse) + totalArea(regions.top), totalArea(fill), 1e-3);
});

test('classification splits the fill area without overlap and turns small sparse pieces solid', () => {
  const l = layer(square(0, 0, 20, 20));
  const above = layer(differenceEx(square(0, 0, 20, 20), square(8, 8, 12, 12)));
  const m = surfaceMasks(l, [above], [l], 1, 1, null);
  const fill = offsetEx(l.islands, -1);
  const r = classifyFill(fill, m, { ...options, minSparseArea: 1 });
  near(totalArea(r.top), 16, 1e-3);
  near(totalArea(r.top) + totalArea(r.solid) + totalArea(r.sparse), totalArea(fill), 1e-3);
  const first = classifyFill(fill, m, { ...options, firstLayer: true, minSparseArea: 1 });
  near(totalArea(first.bottom), totalArea(fill), 1e-6);
});

test('a layer over air is a bridge, anchored a little into what it rests on', () => {
  const l = layer(square(0, 0, 30, 10));
  const pillars = layer([...square(0, 0, 5, 10), ...square(25, 0, 30, 10)]);
  const m = surfaceMasks(l, [l], [pillars], 1, 1, null);
  const fill = offsetEx(l.islands, -0.5);
  const r = classifyFill(fill, m, options);
  const b = totalArea(r.bridge);
  assert.ok(b > 20 * 9 && b < 29 * 9, `bridge area ${b}`);
});

test('a top surface reaches its margin into the infill around it, and a bridge keeps its ground', () => {
  const l = layer(square(0, 0, 20, 20));
  const above = layer(differenceEx(square(0, 0, 20, 20), square(8, 8, 12, 12)));
  const m = surfaceMasks(l, [above], [l], 1, 1, null);
  const fill = offsetEx(l.islands, -1);
  const r = classifyFill(fill, m, { ...options, topMargin: 2 });
  // The 4 × 4 opening above, grown by 2 mm (mitred corners): 8 × 8.
  near(totalArea(r.top), 64, 1e-3);
  near(totalArea(r.top) + totalArea(r.solid) + totalArea(r.sparse), totalArea(fill), 1e-3);
  const overAir = surfaceMasks(l, [above], [layer(square(0, 0, 20, 9))], 1, 1, null);
  const bridged = classifyFill(fill, overAir, { ...options, topMargin: 2 });
  assert.ok(totalArea(bridged.bridge) > 0);
  near(totalArea(intersectionEx(bridged.top, bridged.bridge)), 0, 1e-6);
});

describe('ensure vertical shell thickness', () => {
  // A slope: each layer up is 0.5 mm narrower, so walls (1 mm) of the layers around reach in.
  const slope = Array.from({ length: 8 }, (_, k) => layer(square(k * 0.5, 0, 20, 20)));
  const at = 4;
  const masks = (mode: VerticalShellRule['mode'] | null) =>
    surfaceMasks(slope[at], slope.slice(at + 1), slope.slice(0, at).reverse(), 4, 4, mode && shells(mode));

  it('ensure_all makes solid wherever a layer of the shells above or below has no infill', () => {
    const all = masks('ensure_all');
    // The third layer up starts 1.5 mm further right and has 1 mm walls: its infill starts at
    // x = 4.5, this layer's at x = 3; the layers below are wider and change nothing.
    const solid = intersectionEx(all.verticalShell, inner(slope[at]));
    near(totalArea(solid), (4.5 - 3) * 18, 1e-3);
  });

  it('ensure_moderate takes the walls of the next layer only; none takes nothing', () => {
    const moderate = masks('ensure_moderate');
    const solid = intersectionEx(moderate.verticalShell, inner(slope[at]));
    near(totalArea(solid), (3.5 - 3) * 18, 1e-3);
    assert.equal(masks(null).verticalShell.length, 0);
  });
});

test('the shell under a top is anchored by the shell margin, or widened by the reach of ensure_all', () => {
  const l = layer(square(0, 0, 20, 20));
  const holed = layer(differenceEx(square(0, 0, 20, 20), square(8, 8, 12, 12)));
  const fill = offsetEx(l.islands, -1);
  // Two shell layers: the 4 × 4 opening two layers up is in this layer's top shell.
  const anchored = classifyFill(fill, surfaceMasks(l, [l, holed], [l], 2, 1, null), { ...options, shellMargin: 2 });
  near(totalArea(anchored.solid), 8 * 8, 1e-3);
  const reached = classifyFill(fill, surfaceMasks(l, [l, holed], [l], 2, 1, shells('ensure_all', 1)), options);
  near(totalArea(reached.solid), 6 * 6, 1e-3);
});

test('a memo of fill regions is asked by the area and the masks near it, so a far change keeps the key', () => {
  // Two islands; the layer above covers the left one and leaves a hole over the right one.
  const both = [...square(0, 0, 10, 10), ...square(30, 0, 40, 10)];
  const l = layer(both);
  const covered = layer([...square(0, 0, 10, 10), ...differenceEx(square(30, 0, 40, 10), square(34, 4, 36, 6))]);
  const m = surfaceMasks(l, [covered], [l], 1, 1, null);
  const left = offsetEx(square(0, 0, 10, 10), -1);
  const right = offsetEx(square(30, 0, 40, 10), -1);
  const kept = new Map<string, ReturnType<typeof classifyFill>>();
  const keys: string[] = [];
  const memo = (key: string, compute: () => ReturnType<typeof classifyFill>) => {
    keys.push(key);
    if (!kept.has(key)) kept.set(key, compute());
    return kept.get(key) as ReturnType<typeof classifyFill>;
  };
  assert.deepEqual(classifyFill(right, m, options, memo), classifyFill(right, m, options));
  near(totalArea(classifyFill(right, m, options, memo).top), 4, 1e-3);
  // The left island's masks near it are empty either way: another top far off does not change its key.
  const other = layer([...square(0, 0, 10, 10), ...differenceEx(square(30, 0, 40, 10), square(32, 2, 38, 8))]);
  classifyFill(left, m, options, memo);
  classifyFill(left, surfaceMasks(l, [other], [l], 1, 1, null), options, memo);
  assert.equal(keys[2], keys[3]);
  assert.notEqual(keys[0], keys[2]);
  assert.equal(kept.size, 2);
});

test('an opening offsets only the pieces that can hold its disc, with the same result as offsetting them all', () => {
  let seed = 11;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const radius = 0.19;
  for (let trial = 0; trial < 40; trial++) {
    // Strips along a wall, some narrower than the disc, some wider, some bent, and small blobs.
    const parts: ExPolygon[] = [];
    for (let k = 0; k < 12; k++) {
      const x = 30 * random();
      const y = 30 * random();
      const width = 0.05 + 0.6 * random();
      const length = 0.1 + 8 * random();
      parts.push(...(random() < 0.5 ? square(x, y, x + length, y + width) : square(x, y, x + width, y + length)));
      if (random() < 0.3) parts.push(...square(x, y, x + width, y + width + 2));
    }
    const pieces = unionExs(parts);
    const opened = openedBy(pieces, radius);
    assert.equal(hashExPolygons(opened), hashExPolygons(offsetEx(offsetEx(pieces, -radius), radius)), `trial ${trial}`);
    if (trial === 0) assert.ok(opened.length > 0 && opened.length < pieces.length, 'some pieces are left out, some kept');
  }
});

test('a shell holds what any of its layers leaves uncovered, also under overlapping islands of a neighbour', () => {
  const l = layer(square(0, 0, 20, 20));
  // Simplified outlines of close islands may overlap: the overlap covers no more than once.
  const overlapping = layer([...square(0, 0, 12, 20), ...square(8, 0, 20, 20)]);
  const holed = layer(differenceEx(square(0, 0, 20, 20), square(9, 9, 11, 11)));
  const otherHole = layer(differenceEx(square(0, 0, 20, 20), square(2, 2, 5, 5)));
  const m = surfaceMasks(l, [overlapping, holed, otherHole], [l], 3, 1, null);
  near(totalArea(m.top), 0);
  near(totalArea(m.topShell), 4 + 9);
  // A sliver left by one layer (under 0.1 mm wide) is not a shell.
  const sliver = layer(square(0, 0, 20, 19.95));
  near(totalArea(surfaceMasks(l, [l, sliver], [l], 2, 1, null).topShell), 0);
});
