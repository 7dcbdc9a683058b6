/**
 * POST /api/gcode/estimate over loopback HTTP: PrusaSlicer 2.5 slices the repository's models
 * (test/fixtures/model-files.ts) for the generic Marlin 2 printer of the estimator's accuracy gate,
 * and our answer for that G-code must be within 5 % of the estimate PrusaSlicer wrote into it, with
 * the slicer, layers, filament and feature times read back from the same file. Then packages,
 * density, bad input in the error shape, and roles.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strToU8, zipSync } from 'fflate';
import { gcodeToolsFeature } from '../../../appliance/dashboard/features.js';
import { type DashboardFixture, expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { modelBytes, type TestModel, writeModel } from '../../fixtures/model-files.js';
import { rawRequest } from '../../fixtures/raw-http.js';

const run = promisify(execFile);
const PRUSA_SLICER = '/usr/bin/prusa-slicer';
const CONFIG = join(process.cwd(), 'test/fixtures/estimate/prusaslicer-marlin2-220.ini');
const MODELS: TestModel[] = ['box.stl', 'sponge-8mm.stl'];
const LIMIT = 50 * 1024 * 1024;
/** From the test printer's start G-code and retraction (test/fixtures/estimate/prusaslicer-marlin2-220.ini). */
const INTRO_LINE_MM = 12.5;
const RETRACTION_MM = 2;

let dash: DashboardFixture;
let work: string;
const gcode = new Map<TestModel, Buffer>();

/** PrusaSlicer's "estimated printing time (normal mode)", read here independently of the feature. */
function prusaEstimateS(text: string): number {
  const m = /; estimated printing time \(normal mode\) = ([^\n]+)/.exec(text);
  assert.ok(m, 'PrusaSlicer wrote its estimate');
  const units: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };
  let seconds = 0;
  for (const [, value, unit] of m[1].matchAll(/(\d+)([dhms])/g)) seconds += Number(value) * units[unit];
  return seconds;
}

const estimate = (body: Buffer | Uint8Array, query = '', token = TEST_TOKENS.view) =>
  dash.request('post', `/api/gcode/estimate${query}`, { token, body: Buffer.from(body), headers: { 'content-type': 'application/octet-stream' } });

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'printyard-gcode-estimate-'));
  await Promise.all(
    MODELS.map(async (model) => {
      const out = join(work, `${model}.gcode`);
      await run(PRUSA_SLICER, ['--load', CONFIG, '--export-gcode', '-o', out, writeModel(work, model)], { timeout: 300_000 });
      gcode.set(model, readFileSync(out));
    }),
  );
  dash = await startDashboardFixture({ features: [gcodeToolsFeature], createAuthenticator: testAuthenticator });
});

after(async () => {
  await dash?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

for (const model of MODELS) {
  test(`${model}: within 5 % of PrusaSlicer's own estimate, with its slicer, layers, filament and feature times`, async (t) => {
    const file = gcode.get(model)!;
    const text = file.toString('latin1');
    const r = await estimate(file);
    assert.equal(r.status, 200, r.text);
    const report = r.json;
    const theirs = prusaEstimateS(text);
    const error = report.time.total_s / theirs - 1;
    t.diagnostic(
      `${model}: ours ${report.time.total_s} s, PrusaSlicer ${theirs} s (${(error * 100).toFixed(2)} %), ${report.estimator.mb_per_s} MB/s`,
    );
    assert.ok(Math.abs(error) <= 0.05, `ours ${report.time.total_s} s vs PrusaSlicer ${theirs} s`);

    assert.equal(report.slicer.name, 'PrusaSlicer');
    assert.match(report.slicer.version, /^2\.\d/);
    assert.equal(report.slicer_estimate.total_s, theirs);
    // Both rounded: the total to 0.1 s, the difference to 0.01 %.
    assert.ok(Math.abs(report.slicer_estimate.difference_percent - error * 100) < 0.03);
    assert.equal(report.file.container, 'gcode');
    assert.equal(report.file.upload_bytes, file.length);

    assert.equal(report.layers.source, 'comments');
    assert.equal(report.layers.count, text.match(/^;LAYER_CHANGE$/gm)?.length);
    const heights = [...text.matchAll(/^;Z:([\d.]+)$/gm)].map((m) => Number(m[1]));
    assert.ok(Math.abs(report.height_mm - Math.max(...heights)) < 1e-6, `height ${report.height_mm}`);

    const theirMm = Number(/^; filament used \[mm\] = ([\d.]+)/m.exec(text)![1]);
    const theirCm3 = Number(/^; filament used \[cm3\] = ([\d.]+)/m.exec(text)![1]);
    // The test printer's filament says density 0 (unknown): PLA's is taken, and said so.
    assert.match(text, /^; filament_density = 0$/m);
    assert.equal(report.filament.density_source, 'default');
    assert.equal(report.filament.tools[0].density_g_cm3, 1.24);
    // PrusaSlicer leaves out the start G-code's 12.5 mm intro line, which the printer does extrude;
    // ours also nets out the last retraction, which no unretraction follows.
    const mm = report.filament.tools[0].mm;
    assert.ok(Math.abs(mm - (theirMm + INTRO_LINE_MM)) <= RETRACTION_MM + 0.05, `filament ${mm} mm vs ${theirMm} + ${INTRO_LINE_MM}`);
    const grams = (theirCm3 * 1.24 * mm) / theirMm;
    assert.ok(Math.abs(report.filament.tools[0].g / grams - 1) < 0.01, `filament ${report.filament.tools[0].g} g vs ${grams}`);
    assert.deepEqual(report.slicer_estimate.filament_mm, [theirMm]);

    const types = new Set<string>(report.time.by_feature.map((f: { type: string }) => f.type));
    for (const type of text.matchAll(/^;TYPE:(.+)$/gm)) assert.ok(types.has(type[1]) || type[1] === 'Custom', `feature ${type[1]} has a time`);
    assert.ok(types.has('External perimeter') && types.has('Perimeter'));
    const sum = report.time.by_feature.reduce((s: number, f: { seconds: number }) => s + f.seconds, 0);
    assert.ok(Math.abs(sum - report.time.total_s) < 1, `feature times add up to ${sum} of ${report.time.total_s}`);
  });
}

test('a .gcode.3mf package: its lowest plate is estimated, as the same G-code uploaded bare', async () => {
  const file = gcode.get('box.stl')!;
  const bare = await estimate(file);
  const pkg = zipSync({
    '[Content_Types].xml': strToU8('<Types/>'),
    'Metadata/plate_2.gcode': strToU8('G1 X10 E1\n'),
    'Metadata/plate_1.gcode': new Uint8Array(file),
  });
  const r = await estimate(pkg);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.file.container, 'gcode.3mf');
  assert.equal(r.json.file.plate, 'Metadata/plate_1.gcode');
  assert.deepEqual(r.json.file.plates, ['Metadata/plate_1.gcode', 'Metadata/plate_2.gcode']);
  assert.equal(r.json.file.gcode_bytes, file.length);
  assert.equal(r.json.time.total_s, bare.json.time.total_s);
});

test('grams follow the density query; a file without settings falls back to PLA and says so', async () => {
  const file = Buffer.from(
    gcode
      .get('box.stl')!
      .toString('latin1')
      .replace(/^; filament_density = 0$/m, '; filament_density = 1.1'),
    'latin1',
  );
  const fromFile = (await estimate(file)).json.filament;
  assert.equal(fromFile.density_source, 'file');
  assert.equal(fromFile.tools[0].density_g_cm3, 1.1);
  const dense = (await estimate(file, '?density=2.2')).json.filament;
  assert.equal(dense.density_source, 'query');
  assert.ok(Math.abs(dense.tools[0].g / (fromFile.tools[0].g * 2) - 1) < 0.001, `${dense.tools[0].g} g at 2.2 vs ${fromFile.tools[0].g} g at 1.1`);

  const r = await estimate(Buffer.from('G28\nG1 Z0.2 F600\nG1 X100 E10 F3000\n;TYPE:Skirt\nG1 Y100 E20\n'));
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.slicer, null);
  assert.equal(r.json.slicer_estimate, null);
  assert.equal(r.json.filament.density_source, 'default');
  assert.equal(r.json.filament.tools[0].mm, 20);
  // 20 mm of 1.75 mm PLA: 0.0481 cm³ × 1.24 g/cm³.
  assert.equal(r.json.filament.tools[0].g, 0.06);
  assert.deepEqual(r.json.time.by_feature.map((f: { type: string }) => f.type).sort(), ['Other', 'Skirt']);
  assert.equal(r.json.layers.source, 'z');
  assert.equal(r.json.height_mm, 0.2);
});

test('bad input answers in the error shape', async () => {
  expectError(await estimate(Buffer.alloc(0)), 400, 'ERR_BAD_REQUEST', /empty/);
  expectError(await estimate(Buffer.from(modelBytes('box.stl'))), 422, 'ERR_BAD_REQUEST', /no G-code moves/);
  expectError(await estimate(zipSync({ 'a.txt': strToU8('x') })), 400, 'ERR_BAD_REQUEST', /no G-code/);
  expectError(await estimate(Buffer.from('PK\x03\x04 not really a zip')), 400, 'ERR_BAD_REQUEST', /package/);
  expectError(await estimate(gcode.get('box.stl')!, '?density=heavy'), 400, 'ERR_VALIDATION');
  expectError(await estimate(gcode.get('box.stl')!, '?density=0'), 400, 'ERR_VALIDATION');
  expectError(await estimate(gcode.get('box.stl')!, '?colour=red'), 400, 'ERR_VALIDATION');
});

test('over 50 MB: refused from its Content-Length before the body, and while a chunked body arrives', async () => {
  const declared = await rawRequest(dash.url, {
    head: `POST /api/gcode/estimate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_TOKENS.view}\r\nContent-Length: ${LIMIT + 1}`,
    body: 'G1 X1\n',
    stopWhenAnswered: true,
  });
  assert.equal(declared.status, 413);
  assert.equal(declared.json.code, 'ERR_PAYLOAD_TOO_LARGE');

  const line = Buffer.from('G1 X1 Y1 E0.1 ; a line of G-code padded out to a mebibyte of moves\n');
  const mebibyte = Buffer.concat(Array.from({ length: Math.ceil((1 << 20) / line.length) }, () => line)).subarray(0, 1 << 20);
  const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
  const chunked = await rawRequest(dash.url, {
    head: `POST /api/gcode/estimate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_TOKENS.view}\r\nTransfer-Encoding: chunked`,
    body: Array.from({ length: 60 }, () => chunk(mebibyte)),
    stopWhenAnswered: true,
    timeoutMs: 60_000,
  });
  assert.equal(chunked.status, 413, chunked.body);
  assert.equal(chunked.json.code, 'ERR_PAYLOAD_TOO_LARGE');
  assert.ok(chunked.sentWhenAnswered < 60 * (1 << 20), `answered after ${chunked.sentWhenAnswered} bytes, before the body's end`);
});

test('any signed-in role may estimate; no credentials is 401', async () => {
  const small = Buffer.from('G1 X10 E1 F1200\n');
  expectError(await dash.request('post', '/api/gcode/estimate', { body: small }), 401, 'ERR_UNAUTHORIZED');
  for (const role of ['view', 'print', 'admin'] as const) assert.equal((await estimate(small, '', TEST_TOKENS[role])).status, 200);
});
