/**
 * The desktop-slicer bridge over real HTTP, with Debian's real prusa-slicer and CuraEngine.
 * CuraEngine slices only with Cura's machine definitions, which Debian ships in the `cura` GUI
 * package; the CuraEngine slice test uses the copy the slicing benchmark unpacks into
 * `.cache/peers/` and is skipped without it.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BridgeOptions } from '../../../../appliance/dashboard/slicing/bridge/desktop-bridge.js';
import { startDashboardFixture, testAuthenticator, TEST_TOKENS, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { writeOrcaVendor } from '../../../fixtures/profiles/orca-vendor.js';
import { marlinInput } from '../../printers/sample-printers.js';
import { MARLIN_JOB, postForm, sliceForm, sliceStats } from '../native/slice-client.js';
import { recordingDrivers, type RecordingDrivers } from './recording-driver.js';
import { eventually } from '../../../fixtures/eventually.js';
import { bridgeFeature, nativeSlicingFeature, printersFeature } from '../../../../appliance/dashboard/features.js';

const { view, print, admin } = TEST_TOKENS;
const CURA_DEFINITIONS = path.resolve('.cache/peers/cura-4.13/definitions');

const temp = mkdtempSync(path.join(os.tmpdir(), 'printyard-bridge-test-'));
const running: DashboardFixture[] = [];
after(async () => {
  for (const dash of running) await dash.cleanup();
  rmSync(temp, { recursive: true, force: true });
});

async function start(options?: BridgeOptions, drivers?: RecordingDrivers): Promise<DashboardFixture> {
  const dash = await startDashboardFixture({
    features: [printersFeature, nativeSlicingFeature, bridgeFeature],
    services: { printers: drivers ? { drivers: drivers.registry } : {}, bridge: options },
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
  running.push(dash);
  return dash;
}

/** A folder holding only the named executables of /usr/bin, as links. */
function binFolder(name: string, binaries: string[]): string {
  const dir = path.join(temp, name);
  mkdirSync(dir, { recursive: true });
  for (const binary of binaries) symlinkSync(path.join('/usr/bin', binary), path.join(dir, binary));
  return dir;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of the desktop slicer the bridge is running, once it runs. */
function slicerPid(dash: DashboardFixture): Promise<number> {
  return eventually('the desktop slicer runs', async () => {
    const info = await dash.request('GET', '/api/system/info', { token: view });
    return (info.json.slicer_bridge.processes as { pid: number }[])[0]?.pid;
  });
}

describe('probe and profiles', () => {
  let dash: DashboardFixture;
  before(async () => {
    dash = await start();
  });

  test("finds Debian's PrusaSlicer 2.5 and CuraEngine 4.13 with their versions", async () => {
    const probe = await dash.request('GET', '/api/slicer/bridge/probe?force=1', { token: view });
    assert.equal(probe.status, 200, probe.text);
    const byId = new Map((probe.json.slicers as { id: string }[]).map((s) => [s.id, s as Record<string, unknown>]));
    const prusa = byId.get('prusaslicer')!;
    assert.equal(prusa.path, '/usr/bin/prusa-slicer');
    assert.match(String(prusa.version), /^2\.5\.\d/);
    assert.equal(prusa.can_slice, true);
    assert.deepEqual(prusa.profile_dirs, ['/usr/share/PrusaSlicer/profiles']);
    const cura = byId.get('curaengine')!;
    assert.equal(cura.path, '/usr/bin/CuraEngine');
    assert.equal(cura.version, '4.13.0');
    assert.equal(probe.json.available, true);
    assert.equal((await dash.request('GET', '/api/slicer/bridge/probe')).status, 401);
  });

  test('lists the PrusaSlicer vendor bundles Debian ships, with ids to slice with', async () => {
    const response = await dash.request('GET', '/api/slicer/bridge/profiles?slicer=prusaslicer&vendor=prusa%20research', { token: view });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.json.slicers.length, 1);
    const prusa = response.json.slicers[0];
    assert.equal(prusa.slicer, 'prusaslicer');
    const mk3s = prusa.profiles.find((p: { name: string }) => p.name === 'Original Prusa i3 MK3S & MK3S+');
    assert.deepEqual(
      { id: mk3s.id, kind: mk3s.kind, vendor: mk3s.vendor, file: mk3s.file },
      {
        id: 'prusa-research-original-prusa-i3-mk3s-mk3s-plus',
        kind: 'printer',
        vendor: 'Prusa Research',
        file: '/usr/share/PrusaSlicer/profiles/PrusaResearch.ini',
      },
    );
    assert.ok(prusa.profiles.some((p: { kind: string }) => p.kind === 'filament'));
    assert.ok(prusa.profiles.every((p: { vendor: string }) => p.vendor === 'Prusa Research'));
    const processes = await dash.request('GET', '/api/slicer/bridge/profiles?slicer=prusaslicer&kind=process', { token: view });
    assert.ok(processes.json.slicers[0].profiles.length > 50);
  });

  test('finds an OrcaSlicer installed by hand, lists its profiles, and says it does not slice with it', async () => {
    const install = path.join(temp, 'orca');
    mkdirSync(path.join(install, 'bin'), { recursive: true });
    const executable = path.join(install, 'bin', 'orca-slicer');
    writeFileSync(executable, '#!/bin/sh\necho "OrcaSlicer-2.1.1: a fork of Bambu Studio"\n');
    chmodSync(executable, 0o755);
    writeOrcaVendor(path.join(install, 'share', 'OrcaSlicer', 'profiles'));
    const orcaDash = await start({ searchDirs: [path.join(install, 'bin')] });
    const probe = await orcaDash.request('GET', '/api/slicer/bridge/probe', { token: view });
    assert.deepEqual(
      probe.json.slicers.map((s: { id: string; version: string; can_slice: boolean }) => [s.id, s.version, s.can_slice]),
      [['orcaslicer', '2.1.1', false]],
    );
    assert.equal(probe.json.available, false);
    assert.match(probe.json.reason, /OrcaSlicer: the bridge does not drive/);
    const profiles = await orcaDash.request('GET', '/api/slicer/bridge/profiles?kind=printer', { token: view });
    const names = profiles.json.slicers[0].profiles.map((p: { name: string }) => p.name);
    assert.ok(names.includes('Acme Bolt 0.4 nozzle'), names.join(', '));
  });
});

describe('bridge slice', () => {
  let dash: DashboardFixture;
  before(async () => {
    dash = await start();
  });

  test('slices with PrusaSlicer and answers the G-code with statistics parsed from it', async () => {
    const response = await postForm(dash.url, '/api/slicer/bridge/slice', print, sliceForm('box.stl'));
    const gcode = await response.text();
    assert.equal(response.status, 200, gcode);
    assert.equal(response.headers.get('content-type'), 'text/x.gcode');
    assert.match(response.headers.get('content-disposition') ?? '', /filename="box\.gcode"/);
    assert.match(response.headers.get('x-desktop-slicer') ?? '', /^PrusaSlicer 2\.5/);
    assert.equal(response.headers.get('x-slicer-backend'), 'bridge');
    assert.match(gcode, /^; generated by PrusaSlicer 2\.5/);
    const stats = sliceStats(response);
    assert.equal(stats.layers, (gcode.match(/^;LAYER_CHANGE$/gm) ?? []).length);
    assert.equal(stats.layers, 125, 'box.stl is 25 mm tall: 125 layers of 0.2 mm');
    const footerTime = /^; estimated printing time \(normal mode\) = (.+)$/m.exec(gcode)![1];
    const [, m, s] = /(\d+)m (\d+)s/.exec(footerTime)!;
    assert.equal(stats.estimatedTimeS, Number(m) * 60 + Number(s));
    assert.equal(stats.filamentG[0].toFixed(2), Number(/^; total filament used \[g\] = ([\d.]+)/m.exec(gcode)![1]).toFixed(2));
    assert.match(gcode, /^M109 S215/m, "the bundled PLA's first-layer temperature, from our rendered start G-code");
  });

  test("slices with the desktop slicer's own imported profiles", async () => {
    const response = await postForm(
      dash.url,
      '/api/slicer/bridge/slice',
      print,
      sliceForm('box.stl', {
        printer_id: 'prusa-research-original-prusa-i3-mk3s-mk3s-plus',
        filament_ids: '["prusa-research-prusament-pla"]',
        process_id: 'prusa-research-0.20mm-quality-mk3',
      }),
    );
    const gcode = await response.text();
    assert.equal(response.status, 200, gcode);
    assert.match(gcode, /M862\.3 P "MK3S"/, 'the MK3S start G-code checks the printer model');
    assert.ok(sliceStats(response).layers > 100);
  });

  test("a request's mistakes are its own; what the bridge cannot do is a 503 with the reason", async () => {
    const unknown = await postForm(
      dash.url,
      '/api/slicer/bridge/slice',
      print,
      sliceForm('box.stl', { ...MARLIN_JOB, printer_id: 'no-such-printer' }),
    );
    assert.equal(unknown.status, 404);
    const bambu = await postForm(
      dash.url,
      '/api/slicer/bridge/slice',
      print,
      sliceForm('box.stl', { ...MARLIN_JOB, printer_id: 'bambu-lab-p1s-0.4' }),
    );
    const bambuBody = (await bambu.json()) as { code: string; error: string };
    assert.equal(bambu.status, 503);
    assert.equal(bambuBody.code, 'ERR_UNAVAILABLE');
    assert.match(bambuBody.error, /gcode\.3mf/);
    const form = sliceForm('box.stl');
    form.set('model', new Blob([Buffer.from('solid broken\nfacet normal 0 0 1\nendsolid broken\n')]), 'broken.stl');
    const broken = await postForm(dash.url, '/api/slicer/bridge/slice', print, form);
    assert.equal(broken.status, 422, await broken.clone().text());
    assert.equal((await postForm(dash.url, '/api/slicer/bridge/slice', view, sliceForm('box.stl'))).status, 403);
  });

  test('a client that goes away stops the desktop slicer', async () => {
    const controller = new AbortController();
    const slicing = postForm(dash.url, '/api/slicer/bridge/slice', print, sliceForm('sponge-120mm.stl'), controller.signal).catch(
      (err: Error) => err,
    );
    const pid = await slicerPid(dash);
    assert.equal(isAlive(pid), true);
    controller.abort();
    assert.equal(((await slicing) as Error).name, 'AbortError');
    await eventually('the slicer process is gone', async () => (isAlive(pid) ? undefined : true));
    await eventually('the bridge lists no process', async () => {
      const info = await dash.request('GET', '/api/system/info', { token: view });
      return info.json.slicer_bridge.processes.length === 0 ? true : undefined;
    });
  });

  test('CuraEngine slices an STL when PrusaSlicer is not installed; its statistics come from its log', {
    skip: !existsSync(CURA_DEFINITIONS) && 'no Cura definitions in .cache/peers (run the slicing benchmark once)',
  }, async () => {
    const curaDash = await start({ searchDirs: [binFolder('cura-only', ['CuraEngine'])], extraProfileDirs: { curaengine: [CURA_DEFINITIONS] } });
    const response = await postForm(curaDash.url, '/api/slicer/bridge/slice', print, sliceForm('box.stl'));
    const gcode = await response.text();
    assert.equal(response.status, 200, gcode);
    assert.equal(response.headers.get('x-desktop-slicer'), 'CuraEngine 4.13.0');
    assert.match(gcode, /^;FLAVOR:Marlin/m);
    const stats = sliceStats(response);
    assert.equal(stats.layers, (gcode.match(/^;LAYER:\d+$/gm) ?? []).length);
    assert.ok(stats.estimatedTimeS > 60 && stats.estimatedTimeS !== 6666, `a real estimate, not the header placeholder: ${stats.estimatedTimeS}`);
    assert.ok(stats.filamentG[0] > 1);
  });
});

describe('time-out', () => {
  test('stops the desktop slicer after the time-out and answers 504', async () => {
    const dash = await start({ timeoutMs: 2000 });
    let pid: number | undefined;
    const watching = slicerPid(dash).then((found) => {
      pid = found;
    });
    const response = await postForm(dash.url, '/api/slicer/bridge/slice', print, sliceForm('sponge-120mm.stl'));
    const body = (await response.json()) as { code: string; error: string };
    await watching;
    assert.equal(response.status, 504, JSON.stringify(body));
    assert.equal(body.code, 'ERR_SLICE_FAILED');
    assert.match(body.error, /PrusaSlicer did not finish within 2 s/);
    assert.equal(isAlive(pid!), false, 'the slicer process is gone when the answer comes');
  });
});

describe('without a desktop slicer', () => {
  test('the probe says so and a slice is refused with 503 and the reason', async () => {
    const dash = await start({ searchDirs: [binFolder('empty', [])] });
    const probe = await dash.request('GET', '/api/slicer/bridge/probe', { token: view });
    assert.deepEqual(probe.json.slicers, []);
    assert.equal(probe.json.available, false);
    assert.match(probe.json.reason, /no desktop slicer is installed/);
    const response = await postForm(dash.url, '/api/slicer/bridge/slice', print, sliceForm('box.stl'));
    assert.equal(response.status, 503);
    assert.match(((await response.json()) as { error: string }).error, /no desktop slicer is installed/);
  });
});

describe('slice-and-send', () => {
  let dash: DashboardFixture;
  let drivers: RecordingDrivers;
  let printerId: string;

  async function addPrinter(name: string, port: string, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await dash.request('POST', '/api/printers', {
      token: admin,
      body: marlinInput({ name, connection: { port }, printer_profile: 'generic-marlin-0.4', ...extra }),
    });
    assert.equal(created.status, 201, created.text);
    const id = created.json.id as string;
    if (extra.enabled !== false) {
      await eventually(`${name} is online`, async () =>
        (await dash.request('GET', `/api/printers/${id}`, { token: view })).json.online ? true : undefined,
      );
    }
    return id;
  }

  function sendForm(printer: string, fields: Record<string, string> = {}): FormData {
    const { printer_id: _profile, ...job } = MARLIN_JOB;
    return sliceForm('box.stl', { ...job, printer_id: printer, ...fields });
  }

  before(async () => {
    drivers = recordingDrivers(new Set(['no-upload']));
    dash = await start({}, drivers);
    printerId = await addPrinter('bench', '/dev/ttyBENCH');
  });

  test("slices with the printer's profile, uploads the G-code through its driver and starts it", async () => {
    const response = await postForm(dash.url, '/api/slicer/bridge/slice-and-send', print, sendForm(printerId));
    const body = (await response.json()) as Record<string, any>;
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.deepEqual(
      [body.printer_id, body.printer_name, body.remote_name, body.started, body.backend],
      [printerId, 'bench', 'box.gcode', true, 'bridge'],
    );
    assert.equal(body.slicer.id, 'prusaslicer');
    const driver = drivers.of(printerId);
    assert.deepEqual(driver.started, ['box.gcode']);
    const uploaded = driver.uploads.get('box.gcode')!.toString();
    assert.match(uploaded, /^; generated by PrusaSlicer/);
    assert.equal(body.layers, (uploaded.match(/^;LAYER_CHANGE$/gm) ?? []).length);
  });

  test('an unknown printer is 404, an offline or busy one 409, one that takes no files 422', async () => {
    const unknown = await postForm(dash.url, '/api/slicer/bridge/slice-and-send', print, sendForm('0000000000000000'));
    assert.equal(unknown.status, 404);

    const offline = await addPrinter('asleep', '/dev/ttyASLEEP', { enabled: false });
    const offlineAnswer = await postForm(dash.url, '/api/slicer/bridge/slice-and-send', print, sendForm(offline));
    assert.equal(offlineAnswer.status, 409);
    assert.match(((await offlineAnswer.json()) as { error: string }).error, /offline/);

    const busy = await addPrinter('busy', '/dev/ttyBUSY');
    drivers.of(busy).setState('printing');
    await eventually('the printer reports printing', async () =>
      (await dash.request('GET', `/api/printers/${busy}`, { token: view })).json.state === 'printing' ? true : undefined,
    );
    const busyAnswer = await postForm(dash.url, '/api/slicer/bridge/slice-and-send', print, sendForm(busy));
    assert.equal(busyAnswer.status, 409);
    assert.match(((await busyAnswer.json()) as { error: string }).error, /busy \(printing\)/);
    assert.deepEqual(drivers.of(busy).started, []);

    const noUpload = await addPrinter('no-upload', '/dev/ttyNOUP');
    const noUploadAnswer = await postForm(dash.url, '/api/slicer/bridge/slice-and-send', print, sendForm(noUpload));
    assert.equal(noUploadAnswer.status, 422);
  });

  test('a printer without a profile needs printer_profile_id', async () => {
    const bare = await addPrinter('bare', '/dev/ttyBARE', { printer_profile: null });
    const missing = await postForm(dash.url, '/api/slicer/bridge/slice-and-send', print, sendForm(bare));
    const body = (await missing.json()) as { code: string; details: { path: string }[] };
    assert.equal(missing.status, 400);
    assert.deepEqual(
      body.details.map((d) => d.path),
      ['body/printer_profile_id'],
    );
    const given = await postForm(dash.url, '/api/slicer/bridge/slice-and-send', print, sendForm(bare, { printer_profile_id: 'generic-marlin-0.4' }));
    assert.equal(given.status, 200, await given.clone().text());
    assert.deepEqual(drivers.of(bare).started, ['box.gcode']);
  });
});
