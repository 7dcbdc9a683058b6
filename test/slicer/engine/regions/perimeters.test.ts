import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offsetEx } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { buildWalls, type WallParams, type WallSupport } from '../../../../appliance/slicer/engine/regions/perimeters.js';

const square = (x0: number, y0: number, x1: number, y1: number): ExPolygon => ({
  contour: Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1),
  holes: [],
});

const params = (supportedBy: WallSupport | null): WallParams => ({
  loops: 2,
  outerWidth: 0.42,
  innerWidth: 0.45,
  height: 0.2,
  sequence: 'inner wall/outer wall',
  detectThinWalls: false,
  nozzle: 0.4,
  supportedBy,
});

/** The layer below as walls see it, counting how often its grown outline is asked for. */
function below(islands: ExPolygon[]) {
  const asked = { count: 0 };
  const support: WallSupport = {
    islands,
    grown: () => {
      asked.count++;
      return offsetEx(islands, 0.21);
    },
  };
  return { support, asked };
}

const outerRoles = (island: ExPolygon, support: WallSupport) =>
  buildWalls(island, params(support))
    .walls.filter((e) => e.role === 'outer-wall' || e.role === 'overhang-wall')
    .map((e) => e.role);

test('an outer wall over the layer below is supported, without growing that layer', () => {
  const { support, asked } = below([square(0, 0, 20, 20)]);
  assert.deepEqual(outerRoles(square(0, 0, 20, 20), support), ['outer-wall']);
  assert.equal(asked.count, 0);
});

test('an outer wall mostly beyond the layer below grown by half a wall overhangs', () => {
  const { support, asked } = below([square(0, 0, 5, 20)]);
  assert.deepEqual(outerRoles(square(0, 0, 20, 20), support), ['overhang-wall']);
  assert.equal(asked.count, 1);
});

test('an outer wall just outside the layer below but within its growth is supported', () => {
  // The wall's centre runs 0.21 mm inside the island, 0.1 mm outside the layer below: within the growth.
  const { support } = below([square(0.31, 0.31, 19.69, 19.69)]);
  assert.deepEqual(outerRoles(square(0, 0, 20, 20), support), ['outer-wall']);
});
