/**
 * The queue-wide pause over HTTP and the WebSocket, with scripted printers (queue-dashboard.ts):
 * who may pause, what a paused queue starts (nothing), the reason a job waits with, reasons that
 * pause independently, and the pause surviving a restart of the dashboard.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { expectError } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { connect, wsUrl, type Received, type TestClient } from '../live/ws-client.js';
import { clearPlate, job, PLA_WHITE, postJob, startQueueDashboard, TEST_TOKENS, untilJob, type QueueDashboard } from './queue-dashboard.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-queue-pause-'));
let q: QueueDashboard;
let socket: TestClient;
let marlin: string;
const messages: Received[] = [];

before(async () => {
  q = await startQueueDashboard({ dataDir });
  socket = connect(wsUrl(q.dash.url, `?token=${TEST_TOKENS.view}`));
  socket.ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Received));
  await socket.opened;
  marlin = await q.addPrinter('M1', 'marlin-serial', { printer_profile: 'generic-marlin-0.4' });
  const white = q.shelf.add({ material: 'PLA', color_hex: '#FFFFFF' });
  q.shelf.load(white.id, marlin, { kind: 'tool', tool: 0 });
});

after(async () => {
  socket?.ws.close();
  await q?.dash.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

const pause = (reason: unknown, token = TEST_TOKENS.print) => q.dash.request('post', '/api/queue/pause', { token, body: { reason } });
const resume = (body: Record<string, unknown> = {}) => q.dash.request('post', '/api/queue/resume', { token: TEST_TOKENS.print, body });
const queuePause = async () => (await q.dash.request('get', '/api/queue', { token: TEST_TOKENS.view })).json.pause;

test('pausing needs the print role and a reason', async () => {
  expectError(await pause('maintenance', TEST_TOKENS.view), 403, 'ERR_FORBIDDEN');
  expectError(await pause(''), 400, 'ERR_VALIDATION');
  expectError(await pause('   '), 400, 'ERR_VALIDATION');
  expectError(await q.dash.request('post', '/api/queue/pause', { token: TEST_TOKENS.print, body: {} }), 400, 'ERR_VALIDATION');
  assert.deepEqual(await queuePause(), { paused: false, reasons: [] });
});

test('a paused queue starts nothing: a job added waits with the reason, until every reason is resumed', async () => {
  const paused = await pause('nozzle change');
  assert.equal(paused.status, 200, paused.text);
  assert.equal(paused.json.paused, true);
  assert.deepEqual(
    paused.json.reasons.map((r: any) => [r.reason, r.by]),
    [['nozzle change', 'print']],
  );
  const event = await eventually('queue.update paused', () =>
    messages.find((m) => m.type === 'queue.update' && (m.payload as any).action === 'paused'),
  );
  assert.deepEqual((event.payload as any).pause, paused.json);
  assert.equal((await pause('nozzle change')).json.reasons.length, 1, 'the same reason twice is one pause');

  await clearPlate(q.dash, marlin);
  const added = await postJob(q.dash, 'white.gcode', PLA_WHITE);
  assert.equal(added.status, 201, added.text);
  assert.equal(added.json.waiting_reason, 'queue paused: nozzle change');
  const dispatched = await q.dash.request('post', '/api/queue/dispatch', { token: TEST_TOKENS.print });
  assert.deepEqual(dispatched.json.dispatched, []);

  assert.equal((await pause('dispatch-window')).json.reasons.length, 2);
  await untilJob(q.dash, added.json.id, 'both reasons named', (j) => j.waiting_reason === 'queue paused: nozzle change; dispatch-window');
  const one = await resume({ reason: 'nozzle change' });
  assert.deepEqual(
    one.json.reasons.map((r: any) => r.reason),
    ['dispatch-window'],
  );
  await untilJob(q.dash, added.json.id, 'the other reason left', (j) => j.waiting_reason === 'queue paused: dispatch-window');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal((await job(q.dash, added.json.id)).state, 'queued');
  assert.equal(q.driver(marlin).starts.length, 0, 'nothing started while a reason is left');

  // A pause that stays over a restart still holds everything back.
  await q.dash.stop();
  q = await startQueueDashboard({ dataDir });
  await eventually('the printer driven again', () => q.drivers.get(marlin));
  assert.deepEqual(
    (await queuePause()).reasons.map((r: any) => r.reason),
    ['dispatch-window'],
  );
  const white = q.shelf.add({ material: 'PLA', color_hex: '#FFFFFF' });
  q.shelf.load(white.id, marlin, { kind: 'tool', tool: 0 });
  await untilJob(q.dash, added.json.id, 'still paused after the restart', (j) => j.waiting_reason === 'queue paused: dispatch-window');

  const all = await resume();
  assert.deepEqual(all.json, { paused: false, reasons: [] });
  const printing = await untilJob(q.dash, added.json.id, 'the job printing', (j) => j.state === 'printing');
  assert.equal(printing.waiting_reason, null);
  assert.equal(q.driver(marlin).starts.length, 1);
});
