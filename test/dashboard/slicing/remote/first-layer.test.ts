import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arcPoints, readFirstLayer } from '../../../../appliance/dashboard/slicing/remote/first-layer.js';

async function* lines(text: string): AsyncGenerator<string> {
  yield* text.split('\n');
}

test('with layer markers: the start G-code is left out, the layer ends at the next marker', async () => {
  const gcode = [
    ';TYPE:Custom',
    'G90',
    'M83',
    'G1 Z0.2',
    'G1 X3 Y20',
    'G1 Y120 E10', // prime line before the first marker
    ';LAYER_CHANGE',
    ';Z:0.2',
    'G1 X10 Y10 F6000',
    ';TYPE:Skirt/Brim',
    ';WIDTH:0.5',
    'G1 X20 Y10 E1',
    'G1 X20 Y20 E1',
    'G1 X30 Y30',
    ';TYPE:Outer wall',
    ';WIDTH:0.42',
    'G1 X40 Y30 E1',
    ';LAYER_CHANGE',
    ';Z:0.4',
    'G1 Z0.4',
    'G1 X50 Y50 E1',
  ].join('\n');
  const layer = await readFirstLayer(lines(gcode));
  assert.equal(layer.z, 0.2);
  assert.deepEqual(layer.paths, [
    {
      type: 'Skirt/Brim',
      width: 0.5,
      points: [
        [10, 10],
        [20, 10],
        [20, 20],
      ],
    },
    {
      type: 'Outer wall',
      width: 0.42,
      points: [
        [30, 30],
        [40, 30],
      ],
    },
  ]);
});

test('reading stops once the first layer is complete', async () => {
  let read = 0;
  async function* counting(): AsyncGenerator<string> {
    for (const line of [';LAYER:0', 'G1 X0 Y0', 'G1 X1 Y0 E0.1', ';LAYER:1', 'G1 X2 Y0 E0.2', 'G1 X3 Y0 E0.3', 'G1 X4 Y0 E0.4']) {
      read++;
      yield line;
    }
  }
  const layer = await readFirstLayer(counting());
  assert.equal(read, 4);
  assert.deepEqual(
    layer.paths.map((p) => p.points),
    [
      [
        [0, 0],
        [1, 0],
      ],
    ],
  );
});

test('without markers: the extrusions at the first height; absolute E, G92, relative XY, retractions', async () => {
  const gcode = [
    'G90',
    'M82',
    'G92 E0',
    'G1 Z0.3 F600',
    'G1 X0 Y0',
    'G1 X10 Y0 E1',
    'G1 E0.2',
    'G1 X10 Y5',
    'G1 E1',
    'G91',
    'G1 X5 Y0 E1',
    'G90',
    'G92 E0',
    'G1 X20 Y5 E1',
    'G1 Z0.6',
    'G1 X30 Y5 E2',
  ].join('\n');
  const layer = await readFirstLayer(lines(gcode));
  assert.equal(layer.z, 0.3);
  assert.deepEqual(
    layer.paths.map((p) => p.points),
    [
      [
        [0, 0],
        [10, 0],
      ],
      [
        [10, 5],
        [15, 5],
        [20, 5],
      ],
    ],
  );
  assert.ok(layer.paths.every((p) => p.type === 'Unknown'));
});

test('arcs become short segments that end where the arc ends', async () => {
  const points = arcPoints([10, 0], [0, 10], [0, 0], 'ccw');
  assert.ok(points.length >= Math.ceil(((Math.PI / 2) * 10) / 0.5) - 1);
  assert.deepEqual(points.at(-1), [0, 10]);
  for (const [x, y] of points) assert.ok(Math.abs(Math.hypot(x, y) - 10) < 1e-9);
  const layer = await readFirstLayer(lines(['M83', ';LAYER_CHANGE', 'G1 X10 Y0', 'G3 X0 Y10 I-10 J0 E1', ';LAYER_CHANGE'].join('\n')));
  assert.equal(layer.paths.length, 1);
  assert.deepEqual(layer.paths[0].points.at(-1), [0, 10]);
  assert.ok(
    layer.paths[0].points.every(([x, y]) => x >= -1e-9 && y >= -1e-9),
    'counter-clockwise from +X to +Y stays in the first quadrant',
  );
});
