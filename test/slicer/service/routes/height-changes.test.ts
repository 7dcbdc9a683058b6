/**
 * POST /api/slice with `height_changes` over loopback HTTP: the form field reaches the engine in
 * the job's own process, and the G-code it answers changes the temperature and the retraction
 * at the asked heights; a malformed field is refused before a job is made.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gcodeLayers } from '../../../fixtures/gcode-layers.js';
import { cubeStl, MARLIN_PLA, sliceForm, startSlicer, type SlicerProcess } from '../../../fixtures/slicer-service.js';

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--workers', '1']);
});
after(() => svc.cleanup());

function post(fields: Record<string, string>): Promise<Response> {
  return fetch(`${svc.url}/api/slice`, { method: 'POST', body: sliceForm(cubeStl(), 'cube.stl', fields), headers: { accept: 'application/json' } });
}

test('a slice with height_changes sets the temperature and the retraction length from the first layer at or above each height', async () => {
  const changes = [
    { z_from: 3, setting: 'nozzle_temperature', value: 198 },
    { z_from: 6.1, setting: 'retraction_length', value: 2.35 },
  ];
  const res = await post({ ...MARLIN_PLA, height_changes: JSON.stringify(changes) });
  assert.equal(res.status, 200, await res.clone().text());
  const result = (await res.json()) as { gcode_url: string };
  const layers = gcodeLayers(await (await fetch(`${svc.url}${result.gcode_url}`)).text());
  assert.equal(layers.length, 50);
  assert.deepEqual(
    layers.filter((l) => l.setTemperatures.includes(198)).map((l) => l.bottom),
    [3],
  );
  for (const layer of layers.slice(0, -1)) {
    if (layer.bottom >= 3) assert.equal(layer.temperatureAtFirstExtrusion, 198, `layer from z ${layer.bottom}`);
    // 6.1 falls inside the layer from 6.0: the next one, from 6.2, is the first at or above it.
    const length = layer.bottom >= 6.2 ? 2.35 : 1;
    for (const r of layer.retractions) assert.equal(r.length, length, `layer from z ${layer.bottom}`);
  }
});

test('a malformed height_changes field is a 400 naming the field and the item', async () => {
  const res = await post({ ...MARLIN_PLA, height_changes: JSON.stringify([{ z_from: 2, setting: 'bed_temperature', value: 60 }]) });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { code: string; error: string };
  assert.equal(body.code, 'ERR_BAD_REQUEST');
  assert.match(body.error, /field "height_changes": item 0: setting must be one of/);
  const notJson = await post({ ...MARLIN_PLA, height_changes: '[{' });
  assert.equal(notJson.status, 400);
  assert.match(((await notJson.json()) as { error: string }).error, /field "height_changes" must be a JSON array/);
});
