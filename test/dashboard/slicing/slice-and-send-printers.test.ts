/**
 * slice-and-send with the real pieces over real transports: a dashboard (HTTP, WebSocket) with the
 * real Bambu Lab LAN and Marlin serial drivers, the real printyard-slicer service (HTTP + SSE),
 * Debian's prusa-slicer for the bridge, the virtual Bambu printer (its own mosquitto over TLS,
 * implicit FTPS, an SD card folder) and the virtual Marlin (a socat pty pair), all on this machine.
 * The printers are added through the REST API and watched on the WebSocket and through
 * GET /api/printers/:id/status. Their clocks run 100 times faster than life, so a 10 mm cube at
 * 0.28 mm layers (about five printer minutes) prints in a few seconds.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { unzipSync } from 'fflate';
import { bambuLanDriverFactory } from '../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import type { DashboardFixture } from '../../fixtures/dashboard.js';
import { cubeStl, sliceForm, startSlicer, type SlicerProcess } from '../../fixtures/slicer-service.js';
import { startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { startVirtualMarlin } from '../../fixtures/virtual-marlin.js';
import { connect, wsUrl, type Received, type TestClient } from '../live/ws-client.js';
import { asJson, eventually, postForm, startRemoteDashboard, TEST_TOKENS } from './remote/remote-dashboard.js';

/** The quickest slice of the catalogue: one PLA, the coarsest bundled process. */
const QUICK = { filament_ids: '["generic-pla"]', process_id: '0.28mm-extra-draft' };
/** Waits on a printer: generous, for a loaded two-core machine. */
const PRINT_WAIT_MS = 90_000;

let slicer: SlicerProcess;
let bambu: VirtualBambu;
let dash: DashboardFixture;
let socket: TestClient;
let bambuId: string;
/** Everything the WebSocket delivered. */
const messages: Received[] = [];
/** Every request the virtual printer received over MQTT, as parsed. */
const requests: Record<string, any>[] = [];

before(async () => {
  [slicer, bambu] = await Promise.all([startSlicer(), startVirtualBambu({ timeScale: 100, prepareSeconds: 1 })]);
  bambu.printer.on('request', (handled: { message: unknown }) => {
    if (typeof handled.message === 'object' && handled.message !== null) requests.push(handled.message as Record<string, any>);
  });
  const registry = new DriverRegistry();
  // The driver's own timings, but a start watchdog that does not outlast the test's waits.
  registry.register('bambu-lan', bambuLanDriverFactory({ startTimeoutMs: 30_000 }));
  registry.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  // The bridge searches the usual places, so Debian's prusa-slicer is found.
  dash = await startRemoteDashboard({ url: slicer.url, bridge: {}, printers: { registry, drivers: [] } });
  socket = connect(wsUrl(dash.url, `?token=${TEST_TOKENS.view}`));
  socket.ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Received));
  await socket.opened;
  const created = await dash.request('post', '/api/printers', {
    token: TEST_TOKENS.admin,
    body: {
      name: 'P1S bay 1',
      type: 'bambu-lan',
      printer_profile: 'bambu-lab-p1s-0.4',
      connection: {
        host: bambu.host,
        serial: bambu.serial,
        access_code: bambu.accessCode,
        ca: bambu.caPem,
        mqtt_port: bambu.mqttPort,
        ftps_port: bambu.ftpsPort,
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  bambuId = created.json.id;
  await untilState('idle');
});

after(async () => {
  socket?.ws.close();
  await dash?.cleanup();
  await Promise.all([slicer?.cleanup(), bambu?.stop()]);
});

async function printerStatus(printerId = bambuId): Promise<Record<string, any>> {
  const response = await dash.request('get', `/api/printers/${printerId}/status`, { token: TEST_TOKENS.view });
  assert.equal(response.status, 200, response.text);
  return response.json;
}

/** Waits until GET /api/printers/:id/status shows one of `states`; returns that status. */
function untilState(...states: string[]): Promise<Record<string, any>> {
  return untilStateOf(bambuId, ...states);
}

function untilStateOf(printerId: string, ...states: string[]): Promise<Record<string, any>> {
  return eventually(
    `printer ${printerId} to be ${states.join(' or ')}`,
    async () => {
      const status = await printerStatus(printerId);
      return states.includes(status.state) ? status : null;
    },
    PRINT_WAIT_MS,
  );
}

function sdCard(): string[] {
  return readdirSync(bambu.sdDir).sort();
}

const starts = (): Record<string, any>[] => requests.filter((r) => r.print?.command === 'project_file').map((r) => r.print);
const wsOf = (type: string, from = 0, printerId = bambuId): Record<string, any>[] =>
  messages
    .slice(from)
    .filter((m) => m.type === type && m.payload.printer_id === printerId)
    .map((m) => m.payload);
const sendForm = (model: string, fields: Record<string, string> = {}, size = 10) =>
  sliceForm(cubeStl(size), model, { ...QUICK, printer_id: bambuId, ...fields });
const resultIds = () =>
  readdirSync(path.join(dash.dataDir, 'slice-results'))
    .filter((name) => /^[0-9a-f]{16}$/.test(name))
    .sort();

test('remote: a Bambu profile makes a .gcode.3mf, sent over FTPS, started with project_file, run to FINISH; progress on the WebSocket', async () => {
  const seen = messages.length;
  const sent = await asJson(await postForm(dash, '/api/slicer/remote/slice-and-send', sendForm('cube.stl')));
  assert.equal(sent.status, 200, sent.text);
  const { result } = sent.json;
  assert.deepEqual(
    [sent.json.printer, sent.json.remote_name, sent.json.started, result.backend, result.skipped, result.format, result.file_name],
    [{ id: bambuId, name: 'P1S bay 1' }, 'cube.gcode.3mf', true, 'remote', [], 'gcode.3mf', 'cube.gcode.3mf'],
  );

  // The file on the printer's card is the stored result, byte for byte: a Bambu project.
  const stored = Buffer.from(
    await (await fetch(dash.url + result.gcode_url, { headers: { authorization: `Bearer ${TEST_TOKENS.view}` } })).arrayBuffer(),
  );
  assert.equal(stored.length, result.size_bytes);
  assert.deepEqual(readFileSync(path.join(bambu.sdDir, 'cube.gcode.3mf')), stored);
  const project = unzipSync(stored);
  assert.match(Buffer.from(project['Metadata/plate_1.gcode']).toString('utf8'), /^G1 /m);

  // Started as a project, with the PLA mapped to the AMS's first PLA tray.
  const [start] = starts();
  assert.deepEqual(
    [start.url, start.file, start.param, start.subtask_name, start.use_ams, start.ams_mapping],
    ['ftp://cube.gcode.3mf', 'cube.gcode.3mf', 'Metadata/plate_1.gcode', 'cube', true, [0]],
  );

  const finished = await untilState('finished');
  assert.deepEqual([finished.online, finished.error, finished.job.file, finished.job.progress], [true, null, 'cube', 100]);
  assert.equal(finished.job.layer, result.layers);
  assert.equal(finished.job.total_layers, result.layers);

  // The WebSocket carried the print as it ran: states, and progress that rose to 100.
  await eventually('the finished status on the WebSocket', async () => wsOf('printer.status', seen).some((s) => s.state === 'finished'));
  const states = wsOf('printer.status', seen).map((s) => s.state);
  assert.ok(states.includes('printing'), `states seen: ${states.join(', ')}`);
  assert.ok(states.indexOf('printing') < states.lastIndexOf('finished'));
  await eventually('the last progress on the WebSocket', async () => wsOf('print.progress', seen).some((p) => p.progress === 100));
  const progress = wsOf('print.progress', seen);
  assert.ok(progress.every((p) => p.file === 'cube' && p.total_layers === result.layers));
  assert.ok(
    progress.some((p) => p.progress > 0 && p.progress < 100),
    `progress seen: ${progress.map((p) => p.progress).join(', ')}`,
  );
  assert.ok(
    progress.every((p, i) => i === 0 || p.progress >= progress[i - 1].progress),
    'progress only rises',
  );
});

test('bridge: prusa-slicer writes plain G-code, which a Bambu printer does not start: 422 before slicing, nothing sent', async () => {
  const probe = await dash.request('get', '/api/slicer/bridge/probe', { token: TEST_TOKENS.view });
  assert.equal(probe.json.available, true, 'prusa-slicer is installed and usable: the refusal is about the printer');
  assert.ok(probe.json.slicers.some((s: { id: string; can_slice: boolean }) => s.id === 'prusaslicer' && s.can_slice));
  const card = sdCard();
  const sent = requests.length;

  // With the printer's Bambu profile (the bridge cannot write a .gcode.3mf) and with a Marlin
  // profile given instead (plain G-code, which the driver's project_file start refuses).
  for (const fields of [{}, { printer_profile_id: 'generic-marlin-0.4' }] as Record<string, string>[]) {
    const refused = await asJson(await postForm(dash, '/api/slicer/bridge/slice-and-send', sendForm('cube.stl', fields)));
    assert.deepEqual([refused.status, refused.json.code], [422, 'ERR_UNSUPPORTED_ACTION'], refused.text);
    assert.match(refused.json.error, /printer "P1S bay 1" \(bambu-lan\) prints only \.gcode\.3mf projects/);
    assert.match(refused.json.error, /\/api\/slicer\/remote\/slice-and-send/);
  }
  const info = await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view });
  assert.deepEqual(info.json.slicer_bridge.processes, []);
  assert.deepEqual(sdCard(), card, 'nothing was uploaded');
  assert.equal(requests.slice(sent).filter((r) => r.print).length, 0, 'no print command was sent');
});

test('remote: G-code of a Marlin profile is not uploaded to a Bambu printer: 422, the result kept and named', async () => {
  const card = sdCard();
  const refused = await asJson(
    await postForm(dash, '/api/slicer/remote/slice-and-send', sendForm('marlin.stl', { printer_profile_id: 'generic-marlin-0.4' })),
  );
  assert.deepEqual([refused.status, refused.json.code], [422, 'ERR_UNSUPPORTED_ACTION'], refused.text);
  assert.match(
    refused.json.error,
    /printer "P1S bay 1" \(bambu-lan\) prints \.gcode\.3mf projects, not plain G-code: slice with a Bambu Lab printer profile/,
  );
  const { result } = refused.json.details;
  assert.deepEqual([result.format, result.file_name, result.backend], ['gcode', 'marlin.gcode', 'remote']);
  assert.equal(refused.json.details.uploaded_as, undefined);
  const gcode = await dash.request('get', result.gcode_url, { token: TEST_TOKENS.view });
  assert.equal(gcode.status, 200);
  assert.match(gcode.text, /^G1 /m);
  assert.deepEqual(sdCard(), card, 'nothing was uploaded');
});

test('busy: a print running refuses the next (409, nothing sliced); a cancelled print does not block; odd model names made printable', async () => {
  // A 20 mm cube: printing long enough (some 10 s here) for what follows.
  const first = await asJson(await postForm(dash, '/api/slicer/remote/slice-and-send', sendForm('first.stl', {}, 20)));
  assert.equal(first.status, 200, first.text);
  await untilState('preparing', 'printing');

  const results = resultIds();
  const jobs = (await dash.request('get', '/api/slicer/remote/jobs', { token: TEST_TOKENS.view })).json;
  const busy = await asJson(await postForm(dash, '/api/slicer/remote/slice-and-send', sendForm('second.stl')));
  assert.deepEqual([busy.status, busy.json.code], [409, 'ERR_CONFLICT'], busy.text);
  assert.match(busy.json.error, /^printer "P1S bay 1" is busy \((preparing|printing)\)$/);
  assert.deepEqual(resultIds(), results, 'refused before slicing: no result');
  assert.deepEqual((await dash.request('get', '/api/slicer/remote/jobs', { token: TEST_TOKENS.view })).json, jobs, 'and no job on the service');
  const bridgeBusy = await asJson(await postForm(dash, '/api/slicer/bridge/slice-and-send', sendForm('second.stl')));
  assert.deepEqual([bridgeBusy.status, bridgeBusy.json.code], [409, 'ERR_CONFLICT'], bridgeBusy.text);

  // Cancelled on the printer's side: Bambu reports FAILED "printing was cancelled", which is the
  // last job's outcome, not a printer that cannot print.
  const stop = await dash.request('post', `/api/printers/${bambuId}/control`, { token: TEST_TOKENS.print, body: { action: 'stop' } });
  assert.equal(stop.status, 204, stop.text);
  const cancelled = await untilState('error');
  assert.match(cancelled.error, /printing was cancelled/);

  const next = await asJson(await postForm(dash, '/api/slicer/remote/slice-and-send', sendForm('Würfel [10 mm]..stl')));
  assert.equal(next.status, 200, next.text);
  assert.equal(next.json.result.file_name, 'Würfel [10 mm]..gcode.3mf');
  assert.equal(next.json.remote_name, 'W_rfel__10_mm_.gcode.3mf', "a name the printer's card takes");
  assert.ok(sdCard().includes('W_rfel__10_mm_.gcode.3mf'));
  assert.equal(starts().at(-1)!.subtask_name, 'W_rfel__10_mm_');
  const done = await untilState('finished');
  assert.equal(done.job.file, 'W_rfel__10_mm_');
});

/** Bytes the slicer service has received and not yet read (it is stopped), on any connection to it. */
function unreadBySlicer(): number {
  const hex = `:${slicer.port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[1]?.endsWith(hex) && f[3] === '01')
    .reduce((sum, f) => sum + parseInt(f[4].split(':')[1], 16), 0);
}

test("busy after the slice (the printer's own job began meanwhile): 409 before the upload, the sliced project kept and downloadable", async () => {
  assert.equal((await dash.request('get', '/api/slicer/remote/status?force=1', { token: TEST_TOKENS.view })).json.ok, true);
  const card = sdCard();
  const startsBefore = starts().length;
  // The service is stopped while the slice request reaches it: the printer passed the first check,
  // and turns busy (a job started on its screen) before the slice is done.
  slicer.child.kill('SIGSTOP');
  let answer: Promise<Response>;
  try {
    answer = postForm(dash, '/api/slicer/remote/slice-and-send', sendForm('late.stl'));
    await eventually('the slice request to reach the stopped service', async () => unreadBySlicer() > 0);
    await bambu.setFault('busy', true);
    await untilState('printing');
  } finally {
    slicer.child.kill('SIGCONT');
  }
  const refused = await asJson(await answer);
  assert.deepEqual([refused.status, refused.json.code], [409, 'ERR_CONFLICT'], refused.text);
  assert.equal(refused.json.error, 'printer "P1S bay 1" is busy (printing)');
  const { result } = refused.json.details;
  assert.deepEqual([result.backend, result.format, result.file_name], ['remote', 'gcode.3mf', 'late.gcode.3mf']);
  const download = await fetch(dash.url + result.gcode_url, { headers: { authorization: `Bearer ${TEST_TOKENS.view}` } });
  assert.equal(download.status, 200);
  const project = unzipSync(new Uint8Array(await download.arrayBuffer()));
  assert.ok(project['Metadata/plate_1.gcode'].length > 0, 'the sliced project is whole');
  assert.deepEqual(sdCard(), card, 'nothing was uploaded');
  assert.equal(starts().length, startsBefore, 'nothing was started');

  await bambu.setFault('busy', false);
  await untilState('finished');
});

test('offline: the printer refuses the access code; slice-and-send says it is offline and why, before slicing', async () => {
  const results = resultIds();
  await bambu.setFault('wrongAccessCode', true);
  try {
    // The session drops ("connection to the printer lost"); the manager's reconnect is refused.
    const offline = await eventually(
      'the printer to be offline, its access code refused',
      async () => {
        const status = await printerStatus();
        return !status.online && /access code/.test(status.error ?? '') ? status : null;
      },
      PRINT_WAIT_MS,
    );
    for (const route of ['remote', 'bridge']) {
      const refused = await asJson(await postForm(dash, `/api/slicer/${route}/slice-and-send`, sendForm('cube.stl')));
      assert.deepEqual([refused.status, refused.json.code], [409, 'ERR_CONFLICT'], refused.text);
      assert.equal(refused.json.error, `printer "P1S bay 1" is offline (${offline.error})`);
      assert.match(refused.json.error, /access code/);
    }
    assert.deepEqual(resultIds(), results);
  } finally {
    await bambu.setFault('wrongAccessCode', false);
  }
});

test(
  'Marlin: remote slice-and-send with a Marlin profile streams plain G-code to the virtual Marlin to the end; ' +
    "the bridge's prusa-slicer G-code too; a Bambu project is refused",
  async () => {
    // The virtual Marlin on a socat pty pair, 100 times faster than life; the real Marlin driver
    // streams the file from the box line by line (host printing).
    const marlin = await startVirtualMarlin({ speed: 100 });
    let marlinId: string | null = null;
    try {
      const created = await dash.request('post', '/api/printers', {
        token: TEST_TOKENS.admin,
        body: { name: 'MK3 bay 2', type: 'marlin-serial', printer_profile: 'generic-marlin-0.4', connection: { port: marlin.hostPath } },
      });
      assert.equal(created.status, 201, created.text);
      marlinId = created.json.id as string;
      await untilStateOf(marlinId, 'idle');
      const form = (model: string, fields: Record<string, string> = {}) =>
        sliceForm(cubeStl(), model, { ...QUICK, printer_id: marlinId!, ...fields });

      const seen = messages.length;
      const sent = await asJson(await postForm(dash, '/api/slicer/remote/slice-and-send', form('cube.stl')));
      assert.equal(sent.status, 200, sent.text);
      const { result } = sent.json;
      assert.deepEqual(
        [sent.json.printer, sent.json.remote_name, result.backend, result.format],
        [{ id: marlinId, name: 'MK3 bay 2' }, 'cube.gcode', 'remote', 'gcode'],
      );
      const stored = await dash.request('get', result.gcode_url, { token: TEST_TOKENS.view });
      assert.equal(
        readFileSync(path.join(dash.dataDir, 'printer-files', marlinId, 'cube.gcode'), 'utf8'),
        stored.text,
        'the driver keeps the file it streams',
      );

      const finished = await untilStateOf(marlinId, 'finished');
      assert.deepEqual([finished.online, finished.error, finished.job.file, finished.job.progress], [true, null, 'cube.gcode', 100]);
      assert.equal(finished.job.total_layers, result.layers);
      // Every line reached the printer: it pushed the filament the slicer counted, plus the start
      // G-code's prime line (10 + 9 mm), less the end G-code's 2 mm retraction.
      const extruded = marlin.printer.state().extruded[0];
      assert.ok(Math.abs(extruded - (result.filament_mm[0] + 17)) < 0.5, `extruded ${extruded} mm, sliced for ${result.filament_mm[0]} mm`);
      await eventually('the last progress on the WebSocket', async () => wsOf('print.progress', seen, marlinId!).some((p) => p.progress === 100));
      const progress = wsOf('print.progress', seen, marlinId);
      assert.ok(
        progress.some((p) => p.progress > 0 && p.progress < 100),
        `progress seen: ${progress.map((p) => p.progress).join(', ')}`,
      );
      assert.ok(
        progress.every((p, i) => i === 0 || p.progress >= progress[i - 1].progress),
        'progress only rises',
      );

      // The bridge can target this printer: prusa-slicer's plain G-code starts printing.
      const bridged = await asJson(await postForm(dash, '/api/slicer/bridge/slice-and-send', form('bridged.stl')));
      assert.equal(bridged.status, 200, bridged.text);
      assert.deepEqual(
        [bridged.json.printer_id, bridged.json.remote_name, bridged.json.backend, bridged.json.slicer.id],
        [marlinId, 'bridged.gcode', 'bridge', 'prusaslicer'],
      );
      const bridgedState = async (...states: string[]) =>
        eventually(
          `bridged.gcode ${states.join(' or ')}`,
          async () => {
            const status = await printerStatus(marlinId!);
            return status.job?.file === 'bridged.gcode' && states.includes(status.state) ? status : null;
          },
          PRINT_WAIT_MS,
        );
      await bridgedState('printing', 'finished');
      assert.equal((await bridgedState('finished')).job.progress, 100);

      // A Bambu printer profile makes a project, which a Marlin printer does not print.
      const refused = await asJson(
        await postForm(dash, '/api/slicer/remote/slice-and-send', form('project.stl', { printer_profile_id: 'bambu-lab-p1s-0.4' })),
      );
      assert.deepEqual([refused.status, refused.json.code], [422, 'ERR_UNSUPPORTED_ACTION'], refused.text);
      assert.match(refused.json.error, /printer "MK3 bay 2" \(marlin-serial\) prints plain G-code, not \.gcode\.3mf projects/);
      assert.equal(refused.json.details.result.format, 'gcode.3mf');
      assert.deepEqual(readdirSync(path.join(dash.dataDir, 'printer-files', marlinId)).sort(), ['bridged.gcode', 'cube.gcode']);
    } finally {
      if (marlinId !== null) await dash.request('delete', `/api/printers/${marlinId}`, { token: TEST_TOKENS.admin });
      await marlin.stop();
    }
  },
);
