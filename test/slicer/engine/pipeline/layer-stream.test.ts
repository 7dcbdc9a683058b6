import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LayerStreamInput, streamLayers } from '../../../../appliance/slicer/engine/pipeline/layer-stream.js';
import { F64Writer } from '../../../../appliance/slicer/engine/workers/f64-stream.js';
import { createRunner } from '../../../../appliance/slicer/engine/workers/runner.js';

/** Layers of one object whose outlines are all empty: enough for the stream to cut into chunks. */
function emptyLayers(count: number): LayerStreamInput {
  const w = new F64Writer();
  w.exPolygons([]);
  const outline = w.finish();
  return {
    specs: Array.from({ length: count }, (_, i) => ({ printZ: 0.2 * (i + 1), height: 0.2, sliceZ: 0.2 * i + 0.1 })),
    objects: [{ layers: Array.from({ length: count }, () => outline), top: count - 1 }],
    filaments: [0],
    support: null,
    above: 4,
    below: 3,
  };
}

test('layer stream on two workers: a chunk that fails rejects the stream rather than leave the writer waiting', async () => {
  // Workers that were never set up fail every layer task.
  const runner = createRunner(2);
  try {
    const written: number[] = [];
    await assert.rejects(
      streamLayers(emptyLayers(60), runner, (layer) => {
        written.push(layer.index);
      }),
      /slicing task run before setup/,
    );
    assert.deepEqual(written, []);
  } finally {
    await runner.close();
  }
});
