import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeLayer, encodeLayer } from '../../../../appliance/slicer/engine/toolpath/codec.js';
import type { LayerPaths } from '../../../../appliance/slicer/engine/toolpath/types.js';

test('a layer survives the trip through the Float64Array codec', () => {
  const layer: LayerPaths = {
    index: 3,
    printZ: 0.8,
    height: 0.2,
    hasBridges: true,
    islands: [
      {
        object: 1,
        filament: 0,
        outline: { contour: Float64Array.from([0, 0, 5, 0, 5, 5]), holes: [Float64Array.from([1, 1, 1, 2, 2, 1])] },
        walls: [{ role: 'outer-wall', points: Float64Array.from([0, 0, 5, 0, 0, 0]), loop: true, width: 0.42, height: 0.2, mm3PerMm: 0.075 }],
        infill: [{ role: 'bridge', points: Float64Array.from([1, 1, 4, 4]), loop: false, width: 0.4, height: 0.2, mm3PerMm: 0.12 }],
      },
    ],
    support: [{ role: 'support', points: Float64Array.from([9, 9, 10, 10]), loop: false, width: 0.4, height: 0.2, mm3PerMm: 0.07 }],
    adhesion: [],
  };
  assert.deepEqual(decodeLayer(encodeLayer(layer)), layer);
});
