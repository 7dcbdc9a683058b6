/**
 * A scene holding a calibration piece, over loopback HTTP, sliced by the dashboard's chain (the
 * slicer service disabled, no desktop slicer: the built-in engine) and printed by the real Marlin
 * driver on the virtual Marlin (a socat pty pair, 100 times faster than life):
 * - the temperature tower's changes move with its z scale and sink: the G-code sets each block's
 *   temperature at the first layer at or above the moved height, and every layer from there prints
 *   at it; the printer receives those M104s and prints the scene to the end;
 * - a busy or unknown printer is refused before anything is sliced;
 * - the slice as an event stream: the engine's stages in order, then the stored result; a request's
 *   own `height_changes` replace the tower's; a scene's mistakes are JSON before the stream;
 * - two towers that disagree are 409 naming both, unless the request brings its own changes.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  bridgeFeature,
  modelGenerationFeature,
  nativeSlicingFeature,
  notificationsFeature,
  printersFeature,
  slicerServiceFeature,
} from '../../../appliance/dashboard/features.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import type { HeightChange } from '../../../appliance/slicer/index.js';
import { type DashboardFixture, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { readEventStream } from '../../fixtures/event-stream.js';
import { eventually } from '../../fixtures/eventually.js';
import { type GcodeLayer, gcodeLayers } from '../../fixtures/gcode-layers.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';

/** The coarsest bundled process: the quickest slice and print. */
const PROFILES = { printer_id: 'generic-marlin-0.4', filament_ids: ['generic-pla'], process_id: '0.28mm-extra-draft' };
/** Two blocks, hotter than the PLA profile prints, so the tower's temperatures cannot be the profile's own. */
const TOWER = { start_temperature: 235, end_temperature: 230, step: 5, block_height: 7 };
/** The tower 0.8 times as high and sunk 0.2 mm: its changes at 1 and 8 mm move to 0.6 and 6.2 mm. */
const TOWER_PLACED = { scale: { x: 1, y: 1, z: 0.8 }, translate: { x: 15, y: 0, z: -0.2 } };
const MOVED: HeightChange[] = [
  { z_from: 0.6, setting: 'nozzle_temperature', value: 235 },
  { z_from: 6.2, setting: 'nozzle_temperature', value: 230 },
];
const PRINT_WAIT_MS = 120_000;

let dash: DashboardFixture;
let marlin: VirtualMarlinFixture;
let marlinId: string;
let tower: string;
let gear: string;
/** Everything the virtual Marlin received, in order. */
let received = '';

const as = (role: keyof typeof TEST_TOKENS) => ({ token: TEST_TOKENS[role] });

async function generated(generator: string, body: Record<string, unknown>): Promise<string> {
  const id: string = (await dash.request('post', `/api/ai-model/${generator}`, { ...as('print'), body })).json.id;
  await eventually(`job ${id} done`, async () => (await dash.request('get', `/api/ai-model/jobs/${id}`, as('view'))).json.state === 'done');
  return id;
}

async function scene(name: string, objects: unknown[]): Promise<string> {
  const created = await dash.request('post', '/api/ai-model/scenes', { ...as('print'), body: { name, objects, ...PROFILES } });
  assert.equal(created.status, 201, created.text);
  return created.json.id;
}

async function printerStatus(): Promise<Record<string, any>> {
  return (await dash.request('get', `/api/printers/${marlinId}/status`, as('view'))).json;
}

before(async () => {
  marlin = await startVirtualMarlin({ speed: 100 });
  marlin.printer.on('received', (text: string) => {
    received += text;
  });
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    features: [notificationsFeature, printersFeature, nativeSlicingFeature, bridgeFeature, slicerServiceFeature, modelGenerationFeature],
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false }, slicer_service: { enabled: false } },
    services: { printers: { drivers }, bridge: { searchDirs: [] } },
    logLevel: 'warn',
  });
  const created = await dash.request('post', '/api/printers', {
    ...as('admin'),
    body: { name: 'MK3 bay 2', type: 'marlin-serial', printer_profile: 'generic-marlin-0.4', connection: { port: marlin.hostPath } },
  });
  assert.equal(created.status, 201, created.text);
  marlinId = created.json.id;
  await eventually('the printer idle', async () => (await printerStatus()).state === 'idle', PRINT_WAIT_MS);
  tower = await generated('temperature-tower', TOWER);
  gear = await generated('gear', { teeth: 12, module: 1.5, thickness: 3 });
});

after(async () => {
  if (marlinId) await dash?.request('delete', `/api/printers/${marlinId}`, as('admin'));
  await dash?.cleanup();
  await marlin?.stop();
});

/** The layer where a change made at `z` starts: the first whose bottom is at or above it. */
const layerAt = (layers: GcodeLayer[], z: number): GcodeLayer => {
  const layer = layers.find((l) => l.bottom >= z - 1e-6);
  assert.ok(layer, `a layer at or above z ${z}`);
  return layer;
};

/** Each change set at its layer, every layer from the first change up printed at the value in force, none below at a changed value. */
function assertChangesApplied(gcode: string, changes: readonly HeightChange[]): void {
  const layers = gcodeLayers(gcode);
  for (const change of changes)
    assert.ok(layerAt(layers, change.z_from).setTemperatures.includes(change.value), `M104 S${change.value} at ${change.z_from}`);
  const values = changes.map((c) => c.value);
  for (const layer of layers.slice(0, -1)) {
    const inForce = changes.filter((c) => c.z_from <= layer.bottom + 1e-6).at(-1);
    if (inForce === undefined) assert.ok(!values.includes(layer.temperatureAtFirstExtrusion ?? -1), `layer from z ${layer.bottom} before any change`);
    else assert.equal(layer.temperatureAtFirstExtrusion, inForce.value, `layer from z ${layer.bottom}`);
  }
}

const m104s = (text: string): number[] => [...text.matchAll(/^(?:N\d+ )?M104 S(\d+)/gm)].map((m) => Number(m[1]));

test(
  'a scene of a temperature tower and a gear, sent to the virtual Marlin: M104 at the moved heights, received and printed to the end; ' +
    'a busy or unknown printer refused before slicing',
  async () => {
    const id = await scene('Calibration plate', [
      { job_id: tower, name: 'tower', transform: TOWER_PLACED },
      { job_id: gear, name: 'gear', transform: { translate: { x: -35, y: 0 } } },
    ]);
    const sent = await dash.request('post', `/api/ai-model/scenes/${id}/slice-and-send`, { ...as('print'), body: { printer_id: marlinId } });
    assert.equal(sent.status, 200, sent.text);
    const { result } = sent.json;
    assert.deepEqual(
      [sent.json.printer, sent.json.remote_name, sent.json.started, result.backend, result.format],
      [{ id: marlinId, name: 'MK3 bay 2' }, 'Calibration_plate.gcode', true, 'native', 'gcode'],
    );
    const gcode = (await dash.request('get', result.gcode_url, as('view'))).text;
    assertChangesApplied(gcode, MOVED);
    assert.match(gcode, /; printing object tower/);
    assert.match(gcode, /; printing object gear/);

    // Busy now: refused before anything is sliced (no new result is stored).
    const results = readdirSync(path.join(dash.dataDir, 'slice-results')).length;
    const busy = await dash.request('post', `/api/ai-model/scenes/${id}/slice-and-send`, { ...as('print'), body: { printer_id: marlinId } });
    assert.deepEqual([busy.status, busy.json.code], [409, 'ERR_CONFLICT'], busy.text);
    assert.match(busy.json.error, /printer "MK3 bay 2" is busy/);
    const unknown = await dash.request('post', `/api/ai-model/scenes/${id}/slice-and-send`, { ...as('print'), body: { printer_id: 'nope' } });
    assert.deepEqual([unknown.status, unknown.json.code], [404, 'ERR_NOT_FOUND'], unknown.text);
    assert.equal(readdirSync(path.join(dash.dataDir, 'slice-results')).length, results);
    const viewer = await dash.request('post', `/api/ai-model/scenes/${id}/slice-and-send`, { ...as('view'), body: { printer_id: marlinId } });
    assert.equal(viewer.status, 403);

    const finished = await eventually(
      'the scene printed to the end',
      async () => {
        const status = await printerStatus();
        return status.state === 'finished' ? status : null;
      },
      PRINT_WAIT_MS,
    );
    assert.deepEqual([finished.error, finished.job.file, finished.job.progress], [null, 'Calibration_plate.gcode', 100]);
    assert.equal(readFileSync(path.join(dash.dataDir, 'printer-files', marlinId, 'Calibration_plate.gcode'), 'utf8'), gcode);
    // The printer was told every temperature the G-code sets, in order: the tower's among them.
    assert.deepEqual(m104s(received), m104s(gcode));
    assert.deepEqual(
      m104s(received).filter((s) => s === 235 || s === 230),
      [235, 230],
    );
  },
);

async function sliceEvents(sceneId: string, body: unknown, role: keyof typeof TEST_TOKENS = 'print'): Promise<Response> {
  return fetch(`${dash.url}/api/ai-model/scenes/${sceneId}/slice/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKENS[role]}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

test("slice/events: the engine's stages in order, then the stored result; the request's height_changes replace the tower's", async () => {
  const id = await scene('Tower alone', [{ job_id: tower, name: 'tower', transform: TOWER_PLACED }]);
  const own: HeightChange[] = [{ z_from: 2, setting: 'nozzle_temperature', value: 240 }];
  const response = await sliceEvents(id, { height_changes: own });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const events = (await readEventStream(response)).events.map(({ type, data }) => ({ type, data: JSON.parse(data) }));
  assert.equal(events.at(-1)?.type, 'done', JSON.stringify(events.at(-1)));
  const progress = events.filter((e) => e.type === 'progress').map((e) => e.data as { stage: string; pct: number });
  const stages = progress.map((p) => p.stage).filter((stage, i, all) => all[i - 1] !== stage);
  const order = ['loading', 'repairing', 'slicing', 'gcode'];
  assert.deepEqual(
    stages,
    [...stages].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
    `stages in order: ${stages.join(', ')}`,
  );
  assert.ok(stages.includes('slicing') && stages.includes('gcode'), stages.join(', '));
  assert.deepEqual(
    progress.map((p) => p.pct),
    [...progress.map((p) => p.pct)].sort((a, b) => a - b),
    'progress only grows',
  );

  const result = events.at(-1)?.data;
  assert.deepEqual(
    [result.backend, result.skipped.map((s: { backend: string }) => s.backend), result.file_name],
    ['native', ['remote', 'bridge'], 'Tower_alone.gcode'],
  );
  const gcode = (await dash.request('get', result.gcode_url, as('view'))).text;
  assertChangesApplied(gcode, own);
  assert.deepEqual(
    m104s(gcode).filter((s) => s === 235 || s === 230),
    [],
    "the tower's own temperatures are not set",
  );
});

test("slice/events: a scene's mistakes are JSON before the stream opens; a view user is refused", async () => {
  const overlapping = await scene('Overlap', [
    { job_id: gear, name: 'gear-1' },
    { job_id: gear, name: 'gear-2', transform: { translate: { x: 5, y: 0 } } },
  ]);
  const refused = await sliceEvents(overlapping, {});
  assert.equal(refused.status, 409);
  assert.match(refused.headers.get('content-type') ?? '', /application\/json/);
  assert.deepEqual(((await refused.json()) as any).details.objects, ['gear-1', 'gear-2']);
  const badChange = await sliceEvents(overlapping, { height_changes: [{ z_from: 1, setting: 'nozzle_temperature', value: 900 }] });
  assert.equal(badChange.status, 400);
  const body = (await badChange.json()) as any;
  assert.deepEqual([body.code, body.details[0].path], ['ERR_VALIDATION', 'body/height_changes']);
  assert.equal((await sliceEvents(overlapping, {}, 'view')).status, 403);
});

test('two towers whose moved changes disagree: 409 naming both; the request’s own height_changes take their place', async () => {
  const id = await scene('Two towers', [
    { job_id: tower, name: 'tower-1', transform: { translate: { x: -30, y: 0 } } },
    { job_id: tower, name: 'tower-2', transform: { translate: { x: 30, y: 0, z: -0.5 } } },
  ]);
  const slice = (body: unknown) => dash.request('post', `/api/ai-model/scenes/${id}/slice`, { ...as('print'), body });
  const refused = await slice({});
  assert.deepEqual([refused.status, refused.json.code], [409, 'ERR_CONFLICT'], refused.text);
  assert.deepEqual(refused.json.details.objects, ['tower-1', 'tower-2']);
  assert.match(refused.json.error, /"tower-1" and "tower-2" change settings at different heights/);
  // With its own list the request is past that check: it reaches the slicer (which knows no such process).
  const passed = await slice({ height_changes: [], process_id: 'no-such-process' });
  assert.deepEqual([passed.status, passed.json.code], [404, 'ERR_PROFILE_NOT_FOUND'], passed.text);
});
