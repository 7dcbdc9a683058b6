import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDashboardFixture, testAuthenticator, TEST_TOKENS, type DashboardFixture, type TestResponse } from '../../../fixtures/dashboard.js';
import { MARLIN_JOB, postForm, postFromOtherProcess, sliceForm, sliceStats } from './slice-client.js';
import { eventually } from '../../../fixtures/eventually.js';
import { BAD_NAMES } from '../../../fixtures/bad-names.js';
import { resident, watchChildren } from '../../../fixtures/process-memory.js';
import { hugeOutputJob } from '../../../fixtures/slicer-service.js';
import { zipBomb3mf } from '../../../fixtures/zip.js';
import { nativeSlicingFeature } from '../../../../appliance/dashboard/features.js';

const { view, print } = TEST_TOKENS;
let dash: DashboardFixture;

function start(dataDir?: string): Promise<DashboardFixture> {
  return startDashboardFixture({
    features: [nativeSlicingFeature],
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
    ...(dataDir ? { dataDir } : {}),
  });
}

before(async () => {
  dash = await start();
});
after(() => dash.cleanup());

function paths(response: TestResponse): string[] {
  return (response.json.details as { path: string }[]).map((d) => d.path).sort();
}

async function nativeInfo(): Promise<{
  slots: { running: number; waiting: number };
  slices: { completed: number; failed: number; cancelled: number };
}> {
  const response = await dash.request('GET', '/api/system/info', { token: view });
  assert.equal(response.status, 200, response.text);
  return response.json.slicer_native;
}

describe('native profiles', () => {
  test('lists the bundled profiles as read-only, filtered by kind and source', async () => {
    const all = await dash.request('GET', '/api/slicer/native/profiles', { token: view });
    assert.equal(all.status, 200, all.text);
    const marlin = all.json.profiles.find((p: { id: string }) => p.id === 'generic-marlin-0.4');
    assert.deepEqual([marlin.kind, marlin.source, marlin.read_only], ['printer', 'bundled', true]);
    const filaments = await dash.request('GET', '/api/slicer/native/profiles?kind=filament', { token: view });
    assert.ok(filaments.json.profiles.length > 0);
    assert.ok(filaments.json.profiles.every((p: { kind: string }) => p.kind === 'filament'));
    const users = await dash.request('GET', '/api/slicer/native/profiles?source=user&kind=process', { token: view });
    assert.deepEqual(users.json.profiles, []);
    assert.equal((await dash.request('GET', '/api/slicer/native/profiles?kind=resin', { token: view })).status, 400);
  });

  test("creates a profile that inherits a bundled one; its settings resolve over the parent's", async () => {
    const created = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { name: 'My PLA', kind: 'filament', inherits: 'generic-pla', settings: { nozzle_temperature: [205], filament_flow_ratio: '0.95' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.id, 'my-pla');
    assert.deepEqual([created.json.source, created.json.read_only], ['user', false]);
    assert.deepEqual(created.json.settings, { nozzle_temperature: [205], filament_flow_ratio: [0.95] });
    const parent = await dash.request('GET', '/api/slicer/native/profiles/generic-pla', { token: view });
    assert.deepEqual(created.json.resolved_settings.nozzle_temperature, [205]);
    assert.deepEqual(created.json.resolved_settings.filament_density, parent.json.resolved_settings.filament_density);
    const read = await dash.request('GET', '/api/slicer/native/profiles/my-pla', { token: view });
    assert.equal(read.status, 200);
    assert.equal(read.json.inherits, 'generic-pla');
    assert.ok(read.json.created_at);
  });

  test('names every bad setting by its key: unknown, of another kind, bad value', async () => {
    const response = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { name: 'Broken', kind: 'process', settings: { layer_hieght: 0.2, nozzle_temperature: [200], layer_height: 5, wall_loops: 'many' } },
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.json.code, 'ERR_VALIDATION');
    assert.deepEqual(paths(response), [
      'body/settings/layer_height',
      'body/settings/layer_hieght',
      'body/settings/nozzle_temperature',
      'body/settings/wall_loops',
    ]);
    assert.match(response.json.error, /layer_height.*above the maximum/);
    assert.match(response.json.error, /nozzle_temperature is a filament setting/);
    const missing = await dash.request('GET', '/api/slicer/native/profiles/broken', { token: view });
    assert.equal(missing.status, 404);
  });

  test('refuses a parent that does not exist, is of another kind, or makes a cycle', async () => {
    const unknown = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { name: 'Orphan', kind: 'process', inherits: 'no-such-profile' },
    });
    assert.equal(unknown.status, 400, unknown.text);
    assert.deepEqual(paths(unknown), ['body/inherits']);
    const otherKind = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { name: 'Odd', kind: 'process', inherits: 'generic-pla' },
    });
    assert.equal(otherKind.status, 400, otherKind.text);
    assert.match(otherKind.json.error, /filament profile/);

    const a = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { id: 'cycle-a', name: 'A', kind: 'process', inherits: '0.20mm-standard' },
    });
    assert.equal(a.status, 201, a.text);
    const b = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { id: 'cycle-b', name: 'B', kind: 'process', inherits: 'cycle-a' },
    });
    assert.equal(b.status, 201, b.text);
    const loop = await dash.request('PUT', '/api/slicer/native/profiles/cycle-a', { token: print, body: { inherits: 'cycle-b' } });
    assert.equal(loop.status, 400, loop.text);
    assert.match(loop.json.error, /cycle/);
  });

  test('names, vendors, printer models with bidirectional, zero-width, separator or control characters are 400 naming the code point', async () => {
    const kept = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { name: 'Kept PETG', kind: 'filament', vendor: 'Me' },
    });
    assert.equal(kept.status, 201, kept.text);
    const storeFile = path.join(dash.dataDir, 'slicer-native-profiles.json');
    const stored = readFileSync(storeFile, 'utf8');
    for (const [bad, codePoint] of BAD_NAMES) {
      for (const [field, body] of [
        ['name', { id: 'bad-name', kind: 'filament', name: bad }],
        ['vendor', { id: 'bad-vendor', kind: 'filament', name: 'ok', vendor: bad }],
        ['printer_model', { id: 'bad-model', kind: 'printer', name: 'ok', printer_model: bad }],
      ] as const) {
        const created = await dash.request('POST', '/api/slicer/native/profiles', { token: print, body });
        assert.deepEqual(
          [created.status, created.json.code, created.json.error],
          [400, 'ERR_VALIDATION', `body/${field} contains ${codePoint}`],
          created.text,
        );
      }
      const renamed = await dash.request('PUT', '/api/slicer/native/profiles/kept-petg', { token: print, body: { name: bad } });
      assert.deepEqual(renamed.json.details, [{ path: 'body/name', message: `contains ${codePoint}` }]);
    }
    const blank = await dash.request('POST', '/api/slicer/native/profiles', { token: print, body: { kind: 'filament', name: ' \u3000 ' } });
    assert.deepEqual(blank.json.details, [{ path: 'body/name', message: 'must not be only whitespace' }]);
    assert.equal((await dash.request('GET', '/api/health')).status, 200);
    assert.equal(readFileSync(storeFile, 'utf8'), stored, 'the stored profiles are untouched');
    const again = await dash.request('GET', '/api/slicer/native/profiles/kept-petg', { token: view });
    assert.deepEqual([again.json.name, again.json.vendor, again.json.updated_at], ['Kept PETG', 'Me', kept.json.updated_at]);
  });

  test('names, vendors and printer models are stored trimmed and NFC-normalised', async () => {
    const created = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { kind: 'printer', name: ' Cre\u0301ality Ender ', vendor: 'Cre\u0301ality\u00a0', printer_model: ' Ender-3 ' },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.json.name, created.json.vendor, created.json.printer_model], ['Cr\u00e9ality Ender', 'Cr\u00e9ality', 'Ender-3']);
    const renamed = await dash.request('PUT', `/api/slicer/native/profiles/${created.json.id}`, {
      token: print,
      body: { name: ' Nai\u0308ve ', printer_model: 'K1\u00a0' },
    });
    assert.deepEqual([renamed.status, renamed.json.name, renamed.json.printer_model], [200, 'Na\u00efve', 'K1']);
  });

  test('ids are unique, also against the bundled profiles', async () => {
    const bundled = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { id: 'generic-pla', name: 'Mine', kind: 'filament' },
    });
    assert.equal(bundled.status, 409, bundled.text);
    const first = await dash.request('POST', '/api/slicer/native/profiles', { token: print, body: { name: 'Twice', kind: 'process' } });
    assert.equal(first.status, 201, first.text);
    const second = await dash.request('POST', '/api/slicer/native/profiles', { token: print, body: { name: 'twice', kind: 'process' } });
    assert.equal(second.status, 409, second.text);
  });

  test('PUT merges settings (null removes a key); bundled profiles cannot be changed or deleted', async () => {
    const created = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { id: 'fine-walls', name: 'Fine walls', kind: 'process', inherits: '0.20mm-standard', settings: { wall_loops: 4, layer_height: 0.16 } },
    });
    assert.equal(created.status, 201, created.text);
    const changed = await dash.request('PUT', '/api/slicer/native/profiles/fine-walls', {
      token: print,
      body: { name: 'Fine walls 2', settings: { wall_loops: null, sparse_infill_density: '20%' }, description: 'for tests' },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.json.settings, { layer_height: 0.16, sparse_infill_density: 20 });
    assert.equal(changed.json.name, 'Fine walls 2');
    const parent = await dash.request('GET', '/api/slicer/native/profiles/0.20mm-standard', { token: view });
    assert.equal(changed.json.resolved_settings.wall_loops, parent.json.resolved_settings.wall_loops);
    const bad = await dash.request('PUT', '/api/slicer/native/profiles/fine-walls', { token: print, body: { settings: { layer_height: -1 } } });
    assert.equal(bad.status, 400);
    assert.deepEqual(paths(bad), ['body/settings/layer_height']);

    assert.equal((await dash.request('PUT', '/api/slicer/native/profiles/0.20mm-standard', { token: print, body: { name: 'x' } })).status, 409);
    assert.equal((await dash.request('DELETE', '/api/slicer/native/profiles/generic-pla', { token: print })).status, 409);
    assert.equal((await dash.request('PUT', '/api/slicer/native/profiles/nope', { token: print, body: { name: 'x' } })).status, 404);
  });

  test('a profile others inherit from cannot be deleted; a leaf can', async () => {
    await dash.request('POST', '/api/slicer/native/profiles', { token: print, body: { id: 'parent-proc', name: 'Parent', kind: 'process' } });
    await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { id: 'child-proc', name: 'Child', kind: 'process', inherits: 'parent-proc' },
    });
    const refused = await dash.request('DELETE', '/api/slicer/native/profiles/parent-proc', { token: print });
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.json.error, /child-proc/);
    assert.equal((await dash.request('DELETE', '/api/slicer/native/profiles/child-proc', { token: print })).status, 204);
    assert.equal((await dash.request('DELETE', '/api/slicer/native/profiles/parent-proc', { token: print })).status, 204);
    assert.equal((await dash.request('GET', '/api/slicer/native/profiles/parent-proc', { token: view })).status, 404);
  });

  test('viewers read, only print and above write; nobody without credentials', async () => {
    assert.equal((await dash.request('GET', '/api/slicer/native/profiles')).status, 401);
    assert.equal((await dash.request('POST', '/api/slicer/native/profiles', { token: view, body: { name: 'V', kind: 'process' } })).status, 403);
    assert.equal((await dash.request('DELETE', '/api/slicer/native/profiles/my-pla', { token: view })).status, 403);
  });

  test('a setting nested 30 000 deep is a 400 naming the depth limit; stored profiles are intact', async () => {
    const before = await dash.request('GET', '/api/slicer/native/profiles/my-pla', { token: view });
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const res = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: `{"id":"deep","name":"Deep","kind":"process","settings":{"layer_height":${deep}}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.code, 'ERR_VALIDATION');
    assert.equal(res.json.error, 'body nests objects and arrays more than 64 levels deep');
    assert.equal((await dash.request('GET', '/api/health')).status, 200);
    assert.deepEqual((await dash.request('GET', '/api/slicer/native/profiles/my-pla', { token: view })).json, before.json);
    assert.equal((await dash.request('GET', '/api/slicer/native/profiles/deep', { token: view })).status, 404);
  });

  test('user profiles survive a restart', async () => {
    await dash.stop();
    dash = await start(dash.dataDir);
    const read = await dash.request('GET', '/api/slicer/native/profiles/my-pla', { token: view });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.json.settings.nozzle_temperature, [205]);
  });
});

describe('native slice', () => {
  test('returns the G-code with the four statistics headers, sliced with a user profile', async () => {
    const response = await postForm(dash.url, '/api/slicer/native/slice', print, sliceForm('box.stl', { ...MARLIN_JOB, filament_ids: '["my-pla"]' }));
    const gcode = await response.text();
    assert.equal(response.status, 200, gcode);
    assert.equal(response.headers.get('content-type'), 'text/x.gcode');
    assert.match(response.headers.get('content-disposition') ?? '', /filename="box\.gcode"/);
    assert.equal(response.headers.get('x-slicer-backend'), 'native');
    const stats = sliceStats(response);
    assert.equal(stats.layers, (gcode.match(/^;LAYER_CHANGE/gm) ?? []).length);
    assert.ok(stats.layers > 10);
    assert.ok(stats.estimatedTimeS > 0);
    assert.ok(stats.filamentG[0] > 0);
    assert.ok(stats.durationMs > 0);
    assert.match(gcode, /M109 S205|M104 S205/, "the user profile's nozzle temperature is used");
  });

  test('answers a Bambu printer with a .gcode.3mf package', async () => {
    const response = await postForm(
      dash.url,
      '/api/slicer/native/slice',
      print,
      sliceForm('box.stl', { ...MARLIN_JOB, printer_id: 'bambu-lab-p1s-0.4' }),
    );
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200, body.toString());
    assert.equal(response.headers.get('content-type'), 'model/3mf');
    assert.match(response.headers.get('content-disposition') ?? '', /filename="box\.gcode\.3mf"/);
    assert.equal(body.subarray(0, 2).toString(), 'PK');
    assert.ok(sliceStats(response).layers > 0);
  });

  test("the request's mistakes come back as they are: unknown profile, bad setting, missing field, not a model", async () => {
    const unknown = await postForm(
      dash.url,
      '/api/slicer/native/slice',
      print,
      sliceForm('box.stl', { ...MARLIN_JOB, process_id: 'no-such-process' }),
    );
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { code: string }).code, 'ERR_PROFILE_NOT_FOUND');

    const setting = await postForm(
      dash.url,
      '/api/slicer/native/slice',
      print,
      sliceForm('box.stl', { ...MARLIN_JOB, overrides: '{"layer_height": 7}' }),
    );
    const settingBody = (await setting.json()) as { code: string; details: { path: string }[] };
    assert.equal(setting.status, 400);
    assert.equal(settingBody.code, 'ERR_VALIDATION');
    assert.deepEqual(
      settingBody.details.map((d) => d.path),
      ['body/overrides/layer_height'],
    );

    const { process_id: _dropped, ...withoutProcess } = MARLIN_JOB;
    const missing = await postForm(dash.url, '/api/slicer/native/slice', print, sliceForm('box.stl', withoutProcess));
    const missingBody = (await missing.json()) as { details: { path: string }[] };
    assert.equal(missing.status, 400);
    assert.deepEqual(
      missingBody.details.map((d) => d.path),
      ['body/process_id'],
    );

    const form = sliceForm('box.stl');
    form.set('model', new Blob([Buffer.from('this is no model at all, just text that goes on and on and on')]), 'notes.txt');
    const notModel = await postForm(dash.url, '/api/slicer/native/slice', print, form);
    assert.equal(notModel.status, 415, await notModel.clone().text());
    assert.equal(((await notModel.json()) as { code: string }).code, 'ERR_UNSUPPORTED_MODEL');

    assert.equal((await postForm(dash.url, '/api/slicer/native/slice', view, sliceForm('box.stl'))).status, 403);
  });

  test('a body announced over the 50 MB model limit is refused with 413, and nothing of it is stored', async () => {
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${dash.url}/api/slicer/native/slice`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${print}`,
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(60 * 1024 * 1024),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      // uWebSockets.js answers once the whole request has arrived; the server discards it unread.
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 60; i++) req.write(chunk);
      req.end();
    });
    assert.equal(response.status, 413, response.body);
    assert.equal(JSON.parse(response.body).code, 'ERR_PAYLOAD_TOO_LARGE');
    assert.deepEqual(readdirSync(path.join(dash.dataDir, 'slicing-work', 'native')), []);
  });

  test('the memory a large slice takes goes back once it is done', async () => {
    // Small slices ran before: what the dashboard keeps for any slice is in the baseline. A slice
    // in this process used to leave about 80 MB behind; 30 MB of margin absorbs a late collection.
    const before = resident(process.pid).rssMb;
    const watch = watchChildren(process.pid);
    const reply = await postFromOtherProcess(dash.url, '/api/slicer/native/slice', print, 'sponge-40mm.stl');
    const tasks = watch.stop();
    assert.equal(reply.status, 200);
    assert.ok(reply.bytes > 1_000_000);
    await sleep(500);
    const afterSlice = resident(process.pid).rssMb;
    assert.ok(afterSlice < before + 30, `the dashboard holds ${Math.round(afterSlice)} MB after the slice, ${Math.round(before)} MB before`);
    assert.ok(tasks.peakMb > 100, `the slice took its memory (${Math.round(tasks.peakMb)} MB) in a process of its own`);
  });

  test('a 1 MB 3MF that inflates to 1 GB is refused with 413 naming the limit; the dashboard stays up, small, with its profiles', async () => {
    const kept = await dash.request('POST', '/api/slicer/native/profiles', {
      token: print,
      body: { name: 'Kept PLA', kind: 'filament', inherits: 'generic-pla', settings: { nozzle_temperature: [210] } },
    });
    assert.equal(kept.status, 201, kept.text);
    const form = sliceForm('box.stl');
    form.set('model', new Blob([zipBomb3mf()]), 'bomb.3mf');
    const watch = watchChildren(process.pid);
    const response = await postForm(dash.url, '/api/slicer/native/slice', print, form);
    const tasks = watch.stop();
    const text = await response.text();
    assert.equal(response.status, 413, text.slice(0, 200));
    const body = JSON.parse(text) as { code: string; error: string };
    assert.equal(body.code, 'ERR_PAYLOAD_TOO_LARGE');
    assert.match(body.error, /^the 1\.01 MB 3MF package inflates to 1024 MB, 10\d\d times its size; the limit is 100 times/);
    assert.ok(tasks.children >= 1 && tasks.peakMb < 400, `the slicing process peaked at ${Math.round(tasks.peakMb)} MB`);
    // The dashboard runs in this test's process.
    assert.ok(resident(process.pid).peakMb < 400, `the dashboard peaked at ${Math.round(resident(process.pid).peakMb)} MB`);
    assert.equal((await dash.request('GET', '/api/health')).status, 200);
    const profile = await dash.request('GET', '/api/slicer/native/profiles/kept-pla', { token: view });
    assert.equal(profile.status, 200, profile.text);
    assert.deepEqual(profile.json.settings, kept.json.settings);
    assert.deepEqual((await nativeInfo()).slots.running, 0);
  });

  test('a slice whose G-code would pass slicing.max_output_mb fails with 422 ERR_OUTPUT_TOO_LARGE; nothing of it is left', async () => {
    const capped = await startDashboardFixture({
      features: [nativeSlicingFeature],
      createAuthenticator: testAuthenticator,
      logLevel: 'warn',
      config: { rate_limit: { enabled: false }, slicing: { max_output_mb: 1 } },
    });
    try {
      const huge = hugeOutputJob();
      const form = sliceForm('box.stl', { ...MARLIN_JOB, overrides: huge.overrides });
      form.set('model', new Blob([huge.model]), 'block.stl');
      const response = await postForm(capped.url, '/api/slicer/native/slice', print, form);
      const body = (await response.json()) as { code: string; error: string };
      assert.equal(response.status, 422, JSON.stringify(body));
      assert.equal(body.code, 'ERR_OUTPUT_TOO_LARGE');
      assert.match(body.error, /larger than 1 MB/);
      assert.equal((await capped.request('GET', '/api/health')).status, 200);
      await eventually(
        'the working folder of the failed slice is removed',
        () => readdirSync(path.join(capped.dataDir, 'slicing-work', 'native')).length === 0,
      );
      const cube = await postForm(capped.url, '/api/slicer/native/slice', print, sliceForm('box.stl'));
      assert.equal(cube.status, 200, 'a slice within the cap still works');
      await cube.arrayBuffer();
    } finally {
      await capped.cleanup();
    }
  });

  test('/api/health answers while a slice runs (the engine is in a process of its own)', async () => {
    let sliceDone = false;
    const slicing = postForm(dash.url, '/api/slicer/native/slice', print, sliceForm('sponge-120mm.stl')).then(async (response) => {
      await response.arrayBuffer();
      sliceDone = true;
      return response.status;
    });
    await eventually('the slice has started', async () => (await nativeInfo()).slots.running === 1);
    for (let i = 0; i < 5; i++) {
      const health = await dash.request('GET', '/api/health');
      assert.equal(health.status, 200);
      assert.equal(sliceDone, false, 'health answered only after the slice had finished');
    }
    assert.equal(await slicing, 200);
  });

  test('a client that goes away cancels its slice', async () => {
    const before = (await nativeInfo()).slices.cancelled;
    const controller = new AbortController();
    const slicing = postForm(dash.url, '/api/slicer/native/slice', print, sliceForm('sponge-120mm.stl'), controller.signal).catch(
      (err: Error) => err,
    );
    await eventually('the slice has started', async () => (await nativeInfo()).slots.running === 1);
    controller.abort();
    assert.equal(((await slicing) as Error).name, 'AbortError');
    await eventually('the slice was cancelled', async () => {
      const info = await nativeInfo();
      return info.slices.cancelled === before + 1 && info.slots.running === 0;
    });
  });
});
