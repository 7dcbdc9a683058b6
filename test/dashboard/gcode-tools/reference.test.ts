/**
 * The G-code reference: its data file passes scripts/check-gcode-reference.mjs (and broken copies
 * fail it, naming the problem), it covers what the issue asks, and the two routes search and look
 * up over loopback HTTP with bad input in the error shape and any signed-in role.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gcodeToolsFeature } from '../../../appliance/dashboard/features.js';
import { REFERENCE_FILE } from '../../../appliance/dashboard/gcode-tools/reference.js';
import { type DashboardFixture, expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';

const run = promisify(execFile);
const SCRIPT = join(process.cwd(), 'scripts/check-gcode-reference.mjs');
/** The standard commands Klipper's G-Codes.md lists as supported. */
const KLIPPER_STANDARD = 'G0 G1 G4 G28 M18 M84 M400 M82 M83 G90 G91 G92 M220 M221 M204 M105 M104 M109 M140 M190 M106 M107 M112 M114 M115'.split(' ');

let dash: DashboardFixture;
let work: string;
const doc = JSON.parse(readFileSync(join(process.cwd(), REFERENCE_FILE), 'utf8'));
const get = (path: string, token = TEST_TOKENS.view) => dash.request('get', path, { token });

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'printyard-gcode-reference-'));
  dash = await startDashboardFixture({ features: [gcodeToolsFeature], createAuthenticator: testAuthenticator });
});

after(async () => {
  await dash?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

async function check(file?: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, ...(file ? [file] : [])]);
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, out: e.stderr };
  }
}

test('the data file passes its check script; broken copies fail it, naming each problem', async () => {
  const sound = await check();
  assert.equal(sound.code, 0, sound.out);
  assert.match(sound.out, /sound/);

  const broken = structuredClone(doc);
  delete broken.commands[0].summary;
  broken.commands[1].category = 'magic';
  broken.commands.push({ ...broken.commands.find((c: { code: string }) => c.code === 'M104') });
  broken.commands[2].parameters.push({ name: 'X' });
  broken.commands[3].firmware = [];
  const file = join(work, 'broken.json');
  writeFileSync(file, JSON.stringify(broken));
  const r = await check(file);
  assert.equal(r.code, 1);
  assert.match(r.out, /summary is missing/);
  assert.match(r.out, /category "magic"/);
  assert.match(r.out, /marlin already has M104/);
  assert.match(r.out, /lacks its name or description/);
  assert.match(r.out, /lists no firmware/);

  writeFileSync(file, '{ not json');
  assert.equal((await check(file)).code, 1);
});

test('it covers the common Marlin codes, marks Klipper and RepRapFirmware support, and has Klipper’s own commands', () => {
  const commands: { code: string; firmware: string[] }[] = doc.commands;
  const of = (firmware: string) => commands.filter((c) => c.firmware.includes(firmware));
  assert.ok(of('marlin').length >= 120, `${of('marlin').length} Marlin codes`);
  assert.ok(of('reprapfirmware').length >= 80);
  assert.ok(commands.filter((c) => /^[A-Z]+_/.test(c.code)).length >= 40, 'Klipper extended commands');
  const klipper = new Set(of('klipper').map((c) => c.code));
  for (const code of KLIPPER_STANDARD) assert.ok(klipper.has(code), `${code} is marked as Klipper's`);
  // Klipper takes its limits from its config and SET_VELOCITY_LIMIT, not M201/M203.
  assert.ok(!klipper.has('M201') && !klipper.has('M203'));
});

test('search: by code, by words, by category and firmware', async () => {
  const byCode = await get('/api/gcode/reference?q=g1');
  assert.equal(byCode.status, 200, byCode.text);
  assert.equal(byCode.json.commands[0].code, 'G1');

  const words = await get('/api/gcode/reference?q=bed%20temperature');
  const codes = words.json.commands.map((c: { code: string }) => c.code);
  // Names that hold every word come before entries that only mention them.
  assert.deepEqual(codes.slice(0, 2).sort(), ['M140', 'M190'], String(codes));
  assert.ok(codes.includes('M303'), 'the PID autotune mentions the bed and its target temperature');
  assert.equal(words.json.count, codes.length);

  const fans = await get('/api/gcode/reference?category=fan&firmware=klipper');
  assert.ok(fans.json.count >= 3);
  for (const c of fans.json.commands) {
    assert.equal(c.category, 'fan');
    assert.ok(c.firmware.includes('klipper'));
  }

  const all = await get('/api/gcode/reference');
  assert.equal(all.json.count, doc.commands.length);
  assert.ok(all.json.categories.includes('calibration'));

  const none = await get('/api/gcode/reference?q=warp%20drive');
  assert.equal(none.json.count, 0);
});

test('lookup: normalised codes, one entry per meaning, firmware filter, 404', async () => {
  const g1 = await get('/api/gcode/reference/g01');
  assert.equal(g1.status, 200, g1.text);
  assert.equal(g1.json.code, 'G1');
  assert.ok(g1.json.commands[0].parameters.some((p: { name: string }) => p.name === 'F'));

  assert.equal((await get('/api/gcode/reference/T3')).json.code, 'T');
  assert.equal((await get('/api/gcode/reference/set_velocity_limit')).json.commands[0].firmware.join(), 'klipper');

  const g10 = await get('/api/gcode/reference/G10');
  assert.equal(g10.json.commands.length, 2);
  const rrf = await get('/api/gcode/reference/G10?firmware=reprapfirmware');
  assert.equal(rrf.json.commands.length, 1);
  assert.equal(rrf.json.commands[0].category, 'tool');

  expectError(await get('/api/gcode/reference/SET_VELOCITY_LIMIT?firmware=marlin'), 404, 'ERR_NOT_FOUND', /for marlin/);
  expectError(await get('/api/gcode/reference/M9999'), 404, 'ERR_NOT_FOUND');
});

test('bad input answers in the error shape', async () => {
  expectError(await get('/api/gcode/reference?category=cooking'), 400, 'ERR_VALIDATION');
  expectError(await get('/api/gcode/reference?firmware=sailfish'), 400, 'ERR_VALIDATION');
  expectError(await get(`/api/gcode/reference?q=${'x'.repeat(101)}`), 400, 'ERR_VALIDATION');
  expectError(await get('/api/gcode/reference?page=2'), 400, 'ERR_VALIDATION');
  expectError(await get('/api/gcode/reference/G1%3BM112'), 400, 'ERR_VALIDATION');
});

test('any signed-in role reads the reference; no credentials is 401', async () => {
  expectError(await dash.request('get', '/api/gcode/reference/G28'), 401, 'ERR_UNAUTHORIZED');
  for (const role of ['view', 'print', 'admin'] as const) assert.equal((await get('/api/gcode/reference/G28', TEST_TOKENS[role])).status, 200);
});
