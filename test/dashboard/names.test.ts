/**
 * Every name the running dashboard takes, against the names that hide or fake text
 * (common/names.ts): printers, native profiles, API keys, notification channels and users. Each
 * is refused with 400 naming the field and the code point, the dashboard keeps answering, and
 * every record stored before is unchanged.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BAD_NAMES } from '../fixtures/bad-names.js';
import { loginAs } from '../fixtures/dashboard-auth.js';
import { startDashboardFixture, type DashboardFixture, type TestResponse } from '../fixtures/dashboard.js';
import { fakeDrivers } from './printers/fake-driver.js';
import { marlinInput } from './printers/sample-printers.js';

let dash: DashboardFixture;
let admin: string;
before(async () => {
  dash = await startDashboardFixture({ services: { printers: { drivers: fakeDrivers().registry } }, config: { rate_limit: { enabled: false } } });
  admin = await loginAs(dash, 'admin');
});
after(() => dash.cleanup());

const post = (path: string, body: unknown) => dash.request('POST', path, { token: admin, body });
const LISTS = ['/api/printers', '/api/slicer/native/profiles?source=user', '/api/api-keys', '/api/notifications/channels', '/api/users'];

async function everything(): Promise<string[]> {
  return Promise.all(LISTS.map(async (path) => (await dash.request('GET', path, { token: admin })).text));
}

function refused(response: TestResponse, field: string, message: string, what: string): void {
  assert.deepEqual([response.status, response.json?.code], [400, 'ERR_VALIDATION'], `${what}: ${response.text}`);
  assert.deepEqual(response.json.details, [{ path: `body/${field}`, message }], what);
}

test('printer, profile, API key, channel names with hidden or control characters are 400 naming the code point; usernames stay ASCII', async () => {
  for (const [path, body] of [
    ['/api/printers', marlinInput({ name: 'Kept printer' })],
    ['/api/slicer/native/profiles', { kind: 'filament', name: 'Kept PLA' }],
    ['/api/api-keys', { name: 'node-red', role: 'view' }],
    ['/api/notifications/channels', { type: 'webhook', name: 'Kept hook', url: 'http://127.0.0.1:9/' }],
    ['/api/users', { username: 'kept.user', password: 'a-long-passphrase-9', role: 'view' }],
  ] as const) {
    const created = await post(path, body);
    assert.equal(created.status, 201, `${path}: ${created.text}`);
  }
  const stored = await everything();
  for (const [bad, codePoint] of BAD_NAMES) {
    const problem = `contains ${codePoint}`;
    refused(await post('/api/printers', marlinInput({ name: bad, connection: { port: '/dev/ttyBAD' } })), 'name', problem, 'printer');
    refused(await post('/api/slicer/native/profiles', { kind: 'filament', name: bad, id: 'bad' }), 'name', problem, 'profile');
    refused(await post('/api/api-keys', { name: bad, role: 'view' }), 'name', problem, 'API key');
    refused(await post('/api/notifications/channels', { type: 'webhook', name: bad, url: 'http://127.0.0.1:9/' }), 'name', problem, 'channel');
    const user = await post('/api/users', { username: bad, password: 'a-long-passphrase-9', role: 'view' });
    assert.deepEqual([user.status, user.json.details[0].path], [400, 'body/username'], `username ${JSON.stringify(bad)}`);
  }
  assert.equal((await dash.request('GET', '/api/health')).status, 200);
  assert.deepEqual(await everything(), stored, 'nothing stored changed');
});

test('API key and channel names are stored trimmed and NFC-normalised, like printer and profile names', async () => {
  const key = await post('/api/api-keys', { name: ' Cafe\u0301 key\u00a0', role: 'view' });
  assert.deepEqual([key.status, key.json.name], [201, 'Caf\u00e9 key']);
  const channel = await post('/api/notifications/channels', { type: 'webhook', name: '  Cafe\u0301 hook ', url: 'http://127.0.0.1:9/' });
  assert.deepEqual([channel.status, channel.json.name], [201, 'Caf\u00e9 hook']);
  const twin = await post('/api/notifications/channels', { type: 'webhook', name: 'caf\u00e9 HOOK', url: 'http://127.0.0.1:9/' });
  assert.equal(twin.status, 409, twin.text);
});
