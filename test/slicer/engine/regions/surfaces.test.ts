import assert from 'node:assert/strict';
import { test } from 'node:test';
import { differenceEx, offsetEx } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { hashExPolygons } from '../../../../appliance/slicer/engine/geometry/hash.js';
import { totalArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { classifyFill, surfaceMasks, type HashedLayer } from '../../../../appliance/slicer/engine/regions/surfaces.js';

const square = (x0: number, y0: number, x1: number, y1: number): ExPolygon[] => [{ contour: Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1), holes: [] }];
const layer = (islands: ExPolygon[]): HashedLayer => ({ islands, hash: hashExPolygons(islands) });
const ring = (l: HashedLayer) => differenceEx(l.islands, offsetEx(l.islands, -1));
const near = (a: number, b: number, eps = 1e-6) => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

test('identical neighbours (a prism) give no surfaces and no shells, without any boolean', () => {
  const l = layer(square(0, 0, 20, 20));
  const copy = layer(square(0, 0, 20, 20));
  const m = surfaceMasks(l, [copy, copy, copy], [copy, copy], 3, 2, ring);
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
  const m = surfaceMasks(l, [shifted, shifted], [l], 2, 1, ring);
  // The next layer's 1 mm wall band, from x 0.3 to 1.3 on its left side, lies on this layer.
  assert.ok(m.verticalShell.length > 0);
  const fill = offsetEx(l.islands, -1);
  const regions = classifyFill(fill, m, { firstLayer: false, minSparseArea: 0, bridgeAnchor: 3, solidInfill: false, minSolidWidth: 0.1 });
  assert.ok(totalArea(regions.solid) > 0, 'solid under the shifted wall');
  near(totalArea(regions.solid) + totalArea(regions.sparse) + totalArea(regions.top), totalArea(fill), 1e-3);
});

test('classification splits the fill area without overlap and turns small sparse pieces solid', () => {
  const l = layer(square(0, 0, 20, 20));
  const above = layer(differenceEx(square(0, 0, 20, 20), square(8, 8, 12, 12)));
  const m = surfaceMasks(l, [above], [l], 1, 1, null);
  const fill = offsetEx(l.islands, -1);
  const r = classifyFill(fill, m, { firstLayer: false, minSparseArea: 1, bridgeAnchor: 3, solidInfill: false, minSolidWidth: 0.1 });
  near(totalArea(r.top), 16, 1e-3);
  near(totalArea(r.top) + totalArea(r.solid) + totalArea(r.sparse), totalArea(fill), 1e-3);
  const first = classifyFill(fill, m, { firstLayer: true, minSparseArea: 1, bridgeAnchor: 3, solidInfill: false, minSolidWidth: 0.1 });
  near(totalArea(first.bottom), totalArea(fill), 1e-6);
});

test('a layer over air is a bridge, anchored a little into what it rests on', () => {
  const l = layer(square(0, 0, 30, 10));
  const pillars = layer([...square(0, 0, 5, 10), ...square(25, 0, 30, 10)]);
  const m = surfaceMasks(l, [l], [pillars], 1, 1, null);
  const fill = offsetEx(l.islands, -0.5);
  const r = classifyFill(fill, m, { firstLayer: false, minSparseArea: 0, bridgeAnchor: 3, solidInfill: false, minSolidWidth: 0.1 });
  const b = totalArea(r.bridge);
  assert.ok(b > 20 * 9 && b < 29 * 9, `bridge area ${b}`);
});
