import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { createLogger } from '../../../appliance/common/logger.js';
import { FileSettings } from '../../../appliance/dashboard/settings/file-settings.js';
import { defaultSettings } from '../../../appliance/dashboard/settings/schema.js';

let dir: string;
let lines: string[];
const log = () => createLogger({ name: 't', level: 'debug', write: (l) => void lines.push(l) });
const configFile = () => path.join(dir, 'config.json');
const writeConfig = (value: unknown) => writeFileSync(configFile(), typeof value === 'string' ? value : JSON.stringify(value));
const readConfig = () => JSON.parse(readFileSync(configFile(), 'utf8'));

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-settings-test-'));
  lines = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a missing file is created with the defaults', async () => {
  const settings = await FileSettings.load(dir, {}, log());
  assert.deepEqual(settings.current, defaultSettings());
  assert.deepEqual(readConfig(), defaultSettings());
  assert.equal(settings.current.auth.token_expiry, '24h');
  assert.deepEqual(settings.current.rate_limit, { enabled: true, per_minute: 200, per_second: 20 });
  assert.deepEqual(settings.current.slicer_service, { enabled: false, url: 'http://127.0.0.1:8765', token: '' });
  assert.equal(statSync(configFile()).mode & 0o777, 0o600, 'the file holds the slicer token');
});

test('the file may set only some keys; the rest keep their defaults', async () => {
  writeConfig({ rate_limit: { per_second: 5 } });
  const settings = await FileSettings.load(dir, {}, log());
  assert.deepEqual(settings.current.rate_limit, { enabled: true, per_minute: 200, per_second: 5 });
});

test('bad values refuse the start with a message naming each key', async () => {
  writeConfig({ rate_limit: { per_minute: 0, enabled: 'yes' }, auth: { token_expiry: 'forever' }, slicer_service: { url: 'ftp://x' } });
  await assert.rejects(FileSettings.load(dir, {}, log()), (err: Error & { code: string }) => {
    assert.equal(err.code, 'ERR_INVALID_CONFIG');
    assert.match(err.message, /config\.json: rate_limit\.per_minute must be an integer from 1 to 100000/);
    assert.match(err.message, /config\.json: rate_limit\.enabled must be true or false/);
    assert.match(err.message, /config\.json: auth\.token_expiry must be a duration such as 30m, 24h or 7d/);
    assert.match(err.message, /config\.json: slicer_service\.url must be an http:\/\/ or https:\/\/ URL/);
    return true;
  });
});

test('unknown sections and keys are errors naming them', async () => {
  writeConfig({ rate_limit: { per_hour: 3 }, theme: {} });
  await assert.rejects(
    FileSettings.load(dir, {}, log()),
    /config\.json: rate_limit\.per_hour is not a setting \(known: enabled, per_minute, per_second\); config\.json: theme is not a settings section/,
  );
});

test('the environment overrides the file: SLICER_URL, SLICER_TOKEN and PRINTYARD_DASHBOARD_<SECTION>_<KEY>', async () => {
  writeConfig({ slicer_service: { url: 'http://file:1', token: 'from-file' }, rate_limit: { per_minute: 100 } });
  const settings = await FileSettings.load(
    dir,
    {
      SLICER_URL: 'http://slicer.lan:8765',
      SLICER_TOKEN: 's3cret',
      PRINTYARD_DASHBOARD_RATE_LIMIT_PER_MINUTE: '50',
      PRINTYARD_DASHBOARD_RATE_LIMIT_ENABLED: 'false',
      PRINTYARD_DASHBOARD_AUTH_TOKEN_EXPIRY: '30m',
      // enabled has no environment override, by the spec.
      SLICER_ENABLED: 'true',
      PRINTYARD_SLICER_SERVICE_ENABLED: 'true',
      PRINTYARD_DASHBOARD_SLICER_SERVICE_ENABLED: 'true',
    },
    log(),
  );
  assert.deepEqual(settings.current.slicer_service, { enabled: false, url: 'http://slicer.lan:8765', token: 's3cret' });
  assert.deepEqual(settings.current.rate_limit, { enabled: false, per_minute: 50, per_second: 20 });
  assert.equal(settings.current.auth.token_expiry, '30m');
});

test('a bad environment value names the variable and hides secrets', async () => {
  await assert.rejects(FileSettings.load(dir, { PRINTYARD_DASHBOARD_RATE_LIMIT_PER_SECOND: 'lots' }, log()), {
    code: 'ERR_INVALID_CONFIG',
    message: 'PRINTYARD_DASHBOARD_RATE_LIMIT_PER_SECOND: expected an integer from 1 to 100000, got "lots"',
  });
  await assert.rejects(FileSettings.load(dir, { SLICER_URL: 'slicer' }, log()), /SLICER_URL: expected an http/);
});

test('update validates, writes the file atomically, and a restart reads it back', async () => {
  const settings = await FileSettings.load(dir, {}, log());
  const seen: number[] = [];
  settings.onChange((current) => seen.push(current.rate_limit.per_minute));
  const result = await settings.update({ rate_limit: { per_minute: 120 }, slicer_service: { enabled: true } });
  assert.equal(result.rate_limit.per_minute, 120);
  assert.deepEqual(seen, [120]);
  assert.equal(readConfig().rate_limit.per_minute, 120);
  assert.equal(readConfig().slicer_service.enabled, true);
  assert.deepEqual(readdirSync(dir), ['config.json'], 'no temp file is left');
  const again = await FileSettings.load(dir, {}, log());
  assert.equal(again.current.rate_limit.per_minute, 120);
  assert.equal(again.current.slicer_service.enabled, true);
});

test('a bad update is a 400 naming the key, and changes nothing', async () => {
  const settings = await FileSettings.load(dir, {}, log());
  let called = false;
  settings.onChange(() => {
    called = true;
  });
  await assert.rejects(settings.update({ rate_limit: { per_second: -1 } }), (err: Error & { status: number; code: string; details: unknown }) => {
    assert.equal(err.status, 400);
    assert.equal(err.code, 'ERR_VALIDATION');
    assert.equal(err.message, 'rate_limit.per_second must be an integer from 1 to 100000');
    assert.deepEqual(err.details, [{ path: 'rate_limit.per_second', message: 'must be an integer from 1 to 100000' }]);
    return true;
  });
  await assert.rejects(settings.update({ rate_limit: { burst: 3 } } as never), /rate_limit\.burst is not a setting/);
  assert.equal(called, false);
  assert.deepEqual(readConfig(), defaultSettings());
});

test('an update of an overridden key is kept in the file while the environment stays effective', async () => {
  const settings = await FileSettings.load(dir, { SLICER_URL: 'http://env:1' }, log());
  const result = await settings.update({ slicer_service: { url: 'http://ui:2' } });
  assert.equal(result.slicer_service.url, 'http://env:1');
  assert.equal(readConfig().slicer_service.url, 'http://ui:2');
});

test('concurrent updates are applied one after the other', async () => {
  const settings = await FileSettings.load(dir, {}, log());
  await Promise.all([
    settings.update({ rate_limit: { per_minute: 150 } }),
    settings.update({ rate_limit: { per_second: 7 } }),
    settings.update({ auth: { token_expiry: '7d' } }),
  ]);
  const file = readConfig();
  assert.deepEqual([file.rate_limit.per_minute, file.rate_limit.per_second, file.auth.token_expiry], [150, 7, '7d']);
});

test('a listener that throws is logged and does not fail the update', async () => {
  const settings = await FileSettings.load(dir, {}, log());
  settings.onChange(() => {
    throw new Error('listener broke');
  });
  const off = settings.onChange(() => assert.fail('unsubscribed'));
  off();
  await settings.update({ rate_limit: { per_minute: 99 } });
  assert.match(lines.join(''), /settings listener failed: Error: listener broke/);
});

for (const [what, text] of [
  ['torn JSON', '{"rate_limit": {"per_min'],
  ['an empty file', ''],
  ['an array', '[1, 2]'],
]) {
  test(`a corrupt config.json (${what}) is moved aside and the defaults are used`, async () => {
    writeConfig(text);
    const settings = await FileSettings.load(dir, {}, log());
    assert.deepEqual(settings.current, defaultSettings());
    assert.ok(settings.problem);
    assert.equal(settings.problem.file, 'config.json');
    const moved = readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'));
    assert.deepEqual(moved, [settings.problem.moved_to]);
    assert.equal(readFileSync(path.join(dir, moved[0]), 'utf8'), text);
    assert.deepEqual(readConfig(), defaultSettings());
    assert.match(lines.join(''), /ERROR t: config\.json is unreadable .*moved aside to config\.json\.corrupt-/);
  });
}
