/**
 * Our `.gcode.3mf` read by field name the way Bambu Studio, the printer, Home Assistant's Bambu
 * integration and Bambuddy read it (test/fixtures/bambu-project-reader.ts), and by the
 * dashboard's own reader: one object of the plate can be skipped.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { ProjectFilamentReader } from '../../../../appliance/dashboard/printers/families/bambu-lan/project-filaments.js';
import { projectFacts } from '../../../../appliance/dashboard/queue/file-facts.js';
import { headerTimes, modelLabelIds, pickPixels, readBambuProject, skipBlocks, withSkipped } from '../../../fixtures/bambu-project-reader.js';
import { box, cube, to3mf } from '../../../fixtures/meshes.js';
import { cleanup, config, extrusions, slice, type Sliced } from '../../../fixtures/slicing.js';

/** A 10 mm cube at x 80..90 and a 15 mm block at x 120..135, both 10 mm tall, y 80..90. */
const plate = to3mf({
  objects: [
    { id: 1, name: 'cube', mesh: cube(10) },
    { id: 2, name: 'block', mesh: box(15, 10, 10) },
  ],
  items: [
    { objectId: 1, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 80, 80, 0] },
    { objectId: 2, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 120, 80, 0] },
  ],
});

const metadata = { printerName: 'Bambu Lab P1S 0.4 nozzle', processName: '0.20mm Standard', filamentNames: ['Bambu PLA Basic'] };

let sliced: Promise<Sliced> | null = null;
function sliceOnce(): Promise<Sliced> {
  sliced ??= config({}, 'bambu-lab-p1s-0.4', ['bambu-pla-basic']).then((cfg) => slice(plate, cfg, { metadata }));
  return sliced;
}

test.after(async () => {
  if (sliced) cleanup(await sliced);
});

test('slice_info.config: labelled objects with unique non-zero identify_ids, the Bambu filament id', async () => {
  const s = await sliceOnce();
  const p = readBambuProject(readFileSync(s.result.outputPath));
  assert.equal(p.plate.label_object_enabled, 'true');
  assert.deepEqual(
    p.objects.map((o) => [o.identify_id, o.name, o.skipped]),
    [
      ['1', 'cube', 'false'],
      ['2', 'block', 'false'],
    ],
  );
  assert.deepEqual(
    p.filaments.map((f) => [f.id, f.tray_info_idx, f.type]),
    [['1', 'GFA00', 'PLA']],
  );
  assert.equal(Number(p.plate.prediction), s.result.estimatedTimeS);
});

test('plate_1.json bbox_objects and project_settings.config name what Home Assistant and Bambuddy look up', async () => {
  const s = await sliceOnce();
  const p = readBambuProject(readFileSync(s.result.outputPath));
  const boxes = p.plateJson.bbox_objects as Array<{ id: number; name: string; bbox: number[]; area: number; layer_height: number }>;
  assert.deepEqual(
    boxes.map((b) => [b.id, b.name, b.layer_height]),
    [
      [1, 'cube', 0.2],
      [2, 'block', 0.2],
    ],
  );
  const near = (a: number[], b: number[]) => a.every((v, k) => Math.abs(v - b[k]) < 0.01);
  assert.ok(near(boxes[0].bbox, [80, 80, 90, 90]), `cube at ${boxes[0].bbox}`);
  assert.ok(near(boxes[1].bbox, [120, 80, 135, 90]), `block at ${boxes[1].bbox}`);
  assert.ok(Math.abs(boxes[1].area - 150) < 0.01);
  assert.deepEqual(p.projectSettings.filament_ids, ['GFA00']);
  assert.deepEqual(p.projectSettings.filament_settings_id, ['Bambu PLA Basic']);
  assert.equal(p.projectSettings.print_settings_id, '0.20mm Standard');
  assert.equal(p.projectSettings.printer_settings_id, 'Bambu Lab P1S 0.4 nozzle');
  for (const key of ['thumbnail_file', 'top_file', 'pick_file', 'pattern_bbox_file', 'gcode_file']) {
    assert.ok(p.modelSettings[key] in p.files, `model_settings.config ${key} = ${p.modelSettings[key]} is in the package`);
  }
});

test('the G-code: M624/M625 around each object on every layer, masks indexing the model label id list', async () => {
  const s = await sliceOnce();
  const { gcode } = readBambuProject(readFileSync(s.result.outputPath));
  assert.deepEqual(modelLabelIds(gcode), [1, 2]);
  const blocks = skipBlocks(gcode);
  for (const id of [1, 2]) {
    const own = blocks.filter((b) => b.id === id);
    assert.equal(own.length, s.result.layers, `object ${id} has one block per layer`);
    assert.ok(
      own.every((b) => b.bit === id - 1),
      `object ${id}'s mask bit is its place in the list`,
    );
  }
  const lines = gcode.split('\n');
  const at = (marker: string) => lines.indexOf(marker);
  assert.equal(lines.filter((l) => l === '; MACHINE_START_GCODE_END').length, 1);
  assert.equal(lines.filter((l) => l === '; MACHINE_END_GCODE_START').length, 1);
  assert.ok(at('; MACHINE_START_GCODE_END') < at('; CHANGE_LAYER'));
  assert.ok(at('; MACHINE_END_GCODE_START') > Math.max(...blocks.map((b) => b.end)));
  assert.ok(at('; MACHINE_END_GCODE_START') < at('; EXECUTABLE_BLOCK_END'));
  const times = headerTimes(gcode);
  assert.ok(Math.abs(times.totalS - s.result.estimatedTimeS) <= 1);
  assert.ok(times.modelS > 0 && times.modelS < times.totalS, `model ${times.modelS} s of ${times.totalS} s`);
});

test('the printer skipping the block object: nothing is printed on it, and no filament is pushed that was not retracted', async () => {
  const s = await sliceOnce();
  const { gcode } = readBambuProject(readFileSync(s.result.outputPath));
  const skipped = withSkipped(gcode, new Set([2]));
  // The start G-code's prime line and the skirt round both objects belong to neither.
  const moves = extrusions(skipped).filter((m) => m.layer >= 0 && m.type !== 'Skirt' && m.type !== 'Brim');
  assert.ok(moves.some((m) => m.x >= 80 && m.x <= 90));
  assert.equal(moves.filter((m) => m.x > 110).length, 0, 'no extrusion on the skipped block');
  for (const program of [gcode, skipped, withSkipped(gcode, new Set([1]))]) {
    // Retraction state across blocks, from the end of the start G-code (which purges) to the end
    // G-code: a restart never pushes more than was retracted.
    const body = program.slice(program.indexOf('; MACHINE_START_GCODE_END'), program.indexOf('; MACHINE_END_GCODE_START'));
    let retracted = 0;
    for (const line of body.split('\n')) {
      const e = /^G1 (?:.*\s)?E(-?[\d.]+)/.exec(line);
      if (!e) continue;
      const amount = Number(e[1]);
      if (amount < 0) retracted -= amount;
      else if (!/[XY]/.test(line.split(';')[0])) retracted -= amount;
      assert.ok(retracted > -1e-3, `pushes ${-retracted} mm more than was retracted at "${line}"`);
    }
  }
});

test('pick_1.png: each object filled in its identify_id colour where top_1.png shows it', async () => {
  const s = await sliceOnce();
  const p = readBambuProject(readFileSync(s.result.outputPath));
  const pick = pickPixels(p.files['Metadata/pick_1.png']);
  assert.deepEqual([...pick.byId.keys()].sort(), [1, 2], 'only the two ids, no blended edge colours');
  // The top view frames the whole 256 mm bed: pixel x = bed x * 2, pixel y = (256 - bed y) * 2.
  const centre = (id: number) => {
    const px = pick.byId.get(id) ?? [];
    return [px.reduce((a, [x]) => a + x, 0) / px.length / 2, 256 - px.reduce((a, [, y]) => a + y, 0) / px.length / 2];
  };
  const [cx1, cy1] = centre(1);
  const [cx2, cy2] = centre(2);
  assert.ok(Math.abs(cx1 - 85) < 1 && Math.abs(cy1 - 85) < 1, `cube at ${cx1}, ${cy1}`);
  assert.ok(Math.abs(cx2 - 127.5) < 1 && Math.abs(cy2 - 85) < 1, `block at ${cx2}, ${cy2}`);
  const top = PNG.sync.read(Buffer.from(p.files['Metadata/top_1.png']));
  assert.equal(top.width, pick.width);
  for (const [x, y] of pick.byId.get(2) ?? []) assert.ok(top.data[(y * top.width + x) * 4 + 3] > 0, `top_1.png shows the block at ${x}, ${y}`);
});

test("the dashboard's own readers still read the package, from disk and streamed on its way to the printer", async () => {
  const s = await sliceOnce();
  const bytes = readFileSync(s.result.outputPath);
  const streamed = new ProjectFilamentReader();
  for (let at = 0; at < bytes.length; at += 65536) streamed.push(bytes.subarray(at, at + 65536));
  assert.deepEqual(streamed.result()?.plates.get(1), [{ id: 1, type: 'PLA', color: '#F2F2F2' }]);
  const facts = await projectFacts(s.result.outputPath);
  assert.deepEqual(
    facts.filaments.map((f) => [f.filament, f.material]),
    [[1, 'PLA']],
  );
  assert.equal(facts.estimate_s, s.result.estimatedTimeS);
  assert.ok((facts.amounts[0].grams ?? 0) > 0);
  assert.ok(facts.thumbnail && facts.thumbnail.length > 0);
});
