/**
 * Incoming webhooks on a real dashboard with the virtual Marlin (socat pty, the real driver),
 * the notifications and the history: admins manage receivers (the secret shown once, then only
 * as `secret_set`); each service's payloads, as it sends them, reach their actions (a failure
 * pauses the print, notifies and is recorded on the print's history entry; print done is
 * recorded); bad and missing secrets, bad signatures, stale timestamps, replays and malformed
 * bodies are refused in the documented shape and change nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { historyFeature, inventoryFeature, notificationsFeature, printersFeature, webhooksFeature } from '../../../appliance/dashboard/features.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { sendToPrinter } from '../../../appliance/dashboard/slicing/send-to-printer.js';
import { signBody } from '../../../appliance/dashboard/webhooks/verify.js';
import {
  expectError,
  startDashboardFixture,
  TEST_TOKENS,
  testAuthenticator,
  type DashboardFixture,
  type TestResponse,
} from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { OBICO_NEW_FAILURE, OBICO_OLD_FAILURE, OBICO_TEST, OCTOEVERYWHERE_GADGET, SIMPLYPRINT_DONE } from './sample-payloads.js';

const WAIT_MS = 60_000;
const OBICO_SECRET = 'obico-url-secret-0123456789';
const OE_SECRET = 'octoeverywhere-key-0123456789';
const SP_SECRET = 'simplyprint-signing-0123456789';

let dash: DashboardFixture;
let marlin: VirtualMarlinFixture;
let printerId = '';
let workDir = '';
let obicoId = '';
let spId = '';

const admin = { token: TEST_TOKENS.admin };
const printer = async () => (await dash.request('get', `/api/printers/${printerId}`, { token: TEST_TOKENS.view })).json;
const untilState = (what: string, states: string[]) => eventually(what, async () => states.includes((await printer()).state), WAIT_MS);
const notifications = async () => (await dash.request('get', '/api/notifications', { token: TEST_TOKENS.view })).json.items as any[];
const history = async () => (await dash.request('get', '/api/history', { token: TEST_TOKENS.view })).json.items as any[];
const receiver = async (id: string) => (await dash.request('get', `/api/webhooks/receivers/${id}`, admin)).json;

function post(service: string, body: unknown, options: { query?: string; headers?: Record<string, string> } = {}): Promise<TestResponse> {
  return dash.request('post', `/api/webhook/${service}${options.query ?? ''}`, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...options.headers },
  });
}

function signed(body: unknown, timestamp = Math.floor(Date.now() / 1000), secret = SP_SECRET) {
  const raw = JSON.stringify(body);
  const signature = signBody(secret, String(timestamp), Buffer.from(raw));
  return { raw, headers: { 'x-simplyprint-signature': signature, 'x-simplyprint-timestamp': String(timestamp) } };
}

function refused(response: TestResponse, reason: string): void {
  expectError(response, 401, 'ERR_UNAUTHORIZED');
  assert.equal(response.json.reason, reason, response.text);
  assert.equal(typeof response.json.error, 'string');
}

/** A print long enough to be paused while it runs. */
function printFile(moves: number): string {
  const lines = ['G28', 'G90'];
  for (let i = 0; i < moves; i++) lines.push(`G1 X${10 + (i % 2) * 100} Y${10 + (i % 3) * 50} F3000`);
  return `${lines.join('\n')}\n`;
}

before(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-webhooks-'));
  marlin = await startVirtualMarlin({ speed: 20 });
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    config: { rate_limit: { enabled: false } },
    createAuthenticator: testAuthenticator,
    logLevel: 'error',
    features: [notificationsFeature, printersFeature, inventoryFeature, historyFeature, webhooksFeature],
    services: { printers: { drivers } },
  });
  const created = await dash.request('post', '/api/printers', {
    ...admin,
    body: { name: 'M1', type: 'marlin-serial', connection: { port: marlin.hostPath } },
  });
  assert.equal(created.status, 201, created.text);
  printerId = created.json.id;
  await untilState('the printer online and idle', ['idle']);
});

after(async () => {
  await dash?.cleanup();
  await marlin?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test('without a receiver of the service, a webhook is refused as no_receiver', async () => {
  refused(await post('obico', OBICO_TEST, { query: `?token=${OBICO_SECRET}` }), 'no_receiver');
});

test('admins manage receivers: the secret is shown once, then only as secret_set; printers must exist', async () => {
  expectError(
    await dash.request('post', '/api/webhooks/receivers', { token: TEST_TOKENS.print, body: { name: 'x', service: 'obico' } }),
    403,
    'ERR_FORBIDDEN',
  );
  const badPrinter = await dash.request('post', '/api/webhooks/receivers', {
    ...admin,
    body: { name: 'Obico', service: 'obico', secret: OBICO_SECRET, printers: [{ service_printer: '7', printer_id: 'gone' }] },
  });
  expectError(badPrinter, 400, 'ERR_VALIDATION', /body\/printers\/0\/printer_id "gone" is not a printer/);
  const short = await dash.request('post', '/api/webhooks/receivers', { ...admin, body: { name: 'Obico', service: 'obico', secret: 'short' } });
  expectError(short, 400, 'ERR_VALIDATION', /body\/secret/);

  const obico = await dash.request('post', '/api/webhooks/receivers', {
    ...admin,
    body: { name: 'Obico', service: 'obico', secret: OBICO_SECRET, printers: [{ service_printer: '7', printer_id: printerId }] },
  });
  assert.equal(obico.status, 201, obico.text);
  assert.equal(obico.json.secret, OBICO_SECRET);
  obicoId = obico.json.receiver.id;
  assert.equal(obico.json.receiver.secret_set, true);
  assert.deepEqual(obico.json.receiver.actions.failure_detected, ['notify', 'pause', 'record']);

  const generated = await dash.request('post', '/api/webhooks/receivers', {
    ...admin,
    body: { name: 'OE', service: 'octoeverywhere', default_printer_id: printerId },
  });
  assert.equal(generated.status, 201, generated.text);
  assert.ok(generated.json.secret.length >= 32, 'a generated secret is long');
  const oeId = generated.json.receiver.id;
  const patched = await dash.request('patch', `/api/webhooks/receivers/${oeId}`, { ...admin, body: { secret: OE_SECRET } });
  assert.equal(patched.status, 200, patched.text);
  expectError(
    await dash.request('patch', `/api/webhooks/receivers/${oeId}`, { ...admin, body: { service: 'obico' } }),
    400,
    'ERR_VALIDATION',
    /cannot change/,
  );

  const sp = await dash.request('post', '/api/webhooks/receivers', {
    ...admin,
    body: { name: 'SP', service: 'simplyprint', secret: SP_SECRET, printers: [{ service_printer: 'Prusa MK4', printer_id: printerId }] },
  });
  assert.equal(sp.status, 201, sp.text);
  spId = sp.json.receiver.id;

  const list = await dash.request('get', '/api/webhooks/receivers', admin);
  assert.equal(list.status, 200);
  assert.equal(list.json.length, 3);
  assert.ok(!list.text.includes(OBICO_SECRET) && !list.text.includes(OE_SECRET) && !list.text.includes(SP_SECRET), 'no secret is listed');
  expectError(await dash.request('get', '/api/webhooks/receivers', { token: TEST_TOKENS.view }), 403, 'ERR_FORBIDDEN');
});

test('Obico: missing or wrong URL secrets and malformed bodies are refused and change nothing; the bare test message notifies', async () => {
  const before = (await notifications()).length;
  refused(await post('obico', OBICO_TEST), 'missing_secret');
  refused(await post('obico', OBICO_TEST, { query: '?token=not-the-secret' }), 'bad_secret');
  refused(await post('obico', OBICO_TEST, { headers: { authorization: `Bearer ${OBICO_SECRET}` } }), 'missing_secret');
  expectError(await post('obico', '{"event": "PrintDone"', { query: `?token=${OBICO_SECRET}` }), 400, 'ERR_VALIDATION', /not valid JSON/);
  expectError(await post('obico', { event: 12 }, { query: `?token=${OBICO_SECRET}` }), 400, 'ERR_VALIDATION', /body\/event/);
  assert.equal((await notifications()).length, before, 'nothing was notified');
  assert.equal((await receiver(obicoId)).last_event, null);

  const ok = await post('obico', OBICO_TEST, { query: `?token=${OBICO_SECRET}` });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.json.event, 'test');
  const note = await eventually('the test notification', async () => (await notifications()).find((n) => n.kind === 'webhook.test'));
  assert.match(note.title, /^Obico: test/);
  assert.equal((await receiver(obicoId)).last_event.service_event, 'TestEvent');
});

test("Obico's failure (newer shape) pauses the running print, notifies and is recorded on the print's history entry", async () => {
  const file = path.join(workDir, 'benchy.gcode');
  writeFileSync(file, printFile(3000));
  const sent = await sendToPrinter(dash.server.services.printers, printerId, file, 'gcode', { user: 'admin', sliced: null, spools: null });
  assert.equal(sent.started, true);
  await untilState('printing', ['printing']);
  const open = await eventually('the open history record', async () => (await history()).find((r) => r.state === 'printing'));

  const answer = await post('obico', OBICO_NEW_FAILURE, { query: `?token=${encodeURIComponent(OBICO_SECRET)}` });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.event, 'failure_detected');
  assert.equal(answer.json.printer_id, printerId);
  assert.deepEqual(
    answer.json.actions.map((a: any) => [a.action, a.done]),
    [
      ['pause', true],
      ['record', true],
      ['notify', true],
    ],
  );
  await untilState('paused by the webhook', ['paused']);

  const warning = await eventually('the failure notification', async () =>
    (await notifications()).find((n) => n.kind === 'webhook.failure_detected'),
  );
  assert.equal(warning.level, 'error');
  assert.match(warning.title, /Obico: failure detected on M1/);
  assert.match(warning.message, /Obico detected a failure\. \(benchy\.gcode\) The print was paused\./);
  assert.equal(warning.data.image_url, OBICO_NEW_FAILURE.img_url);

  const record = (await dash.request('get', `/api/history/${open.id}`, { token: TEST_TOKENS.view })).json;
  assert.equal(record.monitor_events.length, 1);
  assert.deepEqual(
    { source: record.monitor_events[0].source, event: record.monitor_events[0].event, service_event: record.monitor_events[0].service_event },
    { source: 'obico', event: 'failure_detected', service_event: 'PrintFailure' },
  );

  // The older shape is read too; the printer is already paused, so it is not paused again.
  const older = await post('obico', { ...OBICO_OLD_FAILURE, is_warning: true }, { query: `?token=${OBICO_SECRET}` });
  assert.equal(older.status, 200, older.text);
  assert.equal(older.json.event, 'failure_warning');
  assert.deepEqual(
    older.json.actions.map((a: any) => a.action),
    ['record', 'notify'],
  );

  const stopped = await dash.request('post', `/api/printers/${printerId}/control`, { token: TEST_TOKENS.print, body: { action: 'stop' } });
  assert.equal(stopped.status, 204, stopped.text);
  await untilState('stopped', ['idle', 'finished']);
});

test('OctoEverywhere: the SecretKey in the body authenticates; print done is recorded on the print that just ended', async () => {
  const ended = await eventually('the closed record', async () => (await history()).find((r) => r.state !== 'printing'));
  refused(await post('octoeverywhere', { ...OCTOEVERYWHERE_GADGET, SecretKey: undefined }), 'missing_secret');
  refused(await post('octoeverywhere', { ...OCTOEVERYWHERE_GADGET, SecretKey: OBICO_SECRET }), 'bad_secret');
  expectError(await post('octoeverywhere', 'PrinterId=1&EventType=2'), 400, 'ERR_VALIDATION', /not valid JSON/);
  expectError(await post('octoeverywhere', { ...OCTOEVERYWHERE_GADGET, SecretKey: OE_SECRET, EventType: 'two' }), 400, 'ERR_VALIDATION', /EventType/);

  const done = await post('octoeverywhere', { ...OCTOEVERYWHERE_GADGET, SecretKey: OE_SECRET, EventType: 2, Error: undefined });
  assert.equal(done.status, 200, done.text);
  assert.equal(done.json.event, 'print_done');
  assert.equal(done.json.printer_id, printerId, 'the fallback printer');
  const record = (await dash.request('get', `/api/history/${ended.id}`, { token: TEST_TOKENS.view })).json;
  assert.deepEqual(
    record.monitor_events.map((e: any) => [e.source, e.event]),
    [
      ['obico', 'failure_detected'],
      ['obico', 'failure_warning'],
      ['octoeverywhere', 'print_done'],
    ],
  );
  await eventually('the done notification', async () => (await notifications()).find((n) => n.kind === 'webhook.print_done'));
});

test('SimplyPrint: a signed request within the window is taken once; bad signatures, stale timestamps and replays are refused', async () => {
  const first = signed(SIMPLYPRINT_DONE);
  const ok = await post('simplyprint', first.raw, { headers: first.headers });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.json.event, 'print_done');
  assert.equal(ok.json.printer_id, printerId, 'mapped by the service printer name');
  refused(await post('simplyprint', first.raw, { headers: first.headers }), 'replayed');

  const stale = signed(SIMPLYPRINT_DONE, Math.floor(Date.now() / 1000) - 301);
  refused(await post('simplyprint', stale.raw, { headers: stale.headers }), 'stale_timestamp');
  const future = signed(SIMPLYPRINT_DONE, Math.floor(Date.now() / 1000) + 400);
  refused(await post('simplyprint', future.raw, { headers: future.headers }), 'stale_timestamp');
  const wrongKey = signed(SIMPLYPRINT_DONE, undefined, 'another-secret-of-16+');
  refused(await post('simplyprint', wrongKey.raw, { headers: wrongKey.headers }), 'bad_signature');
  const tampered = signed(SIMPLYPRINT_DONE);
  refused(await post('simplyprint', tampered.raw.replace('job.done', 'job.failed'), { headers: tampered.headers }), 'bad_signature');
  const noTime = signed(SIMPLYPRINT_DONE);
  refused(
    await post('simplyprint', noTime.raw, { headers: { 'x-simplyprint-signature': noTime.headers['x-simplyprint-signature'] } }),
    'bad_timestamp',
  );
  refused(await post('simplyprint', SIMPLYPRINT_DONE), 'missing_secret');

  // SimplyPrint's own secret token header, unsigned.
  const token = await post('simplyprint', { ...SIMPLYPRINT_DONE, event: 'job.failed' }, { headers: { 'x-sp-token': SP_SECRET } });
  assert.equal(token.status, 200, token.text);
  assert.equal(token.json.event, 'print_failed');
  assert.equal((await receiver(spId)).last_event.service_event, 'job.failed');

  const disabled = await dash.request('patch', `/api/webhooks/receivers/${spId}`, { ...admin, body: { enabled: false } });
  assert.equal(disabled.status, 200, disabled.text);
  refused(await post('simplyprint', SIMPLYPRINT_DONE, { headers: { 'x-sp-token': SP_SECRET } }), 'receiver_disabled');
  assert.equal((await dash.request('delete', `/api/webhooks/receivers/${spId}`, admin)).status, 204);
  refused(await post('simplyprint', SIMPLYPRINT_DONE, { headers: { 'x-sp-token': SP_SECRET } }), 'no_receiver');
});
