/**
 * `plate.clear` over the WebSocket: a print-role session confirms a plate as
 * `POST /api/printers/:id/plate-cleared` does (the plate answered, the `printer.plate` event, the
 * plate clear over REST); a view-role session and an unknown printer get an `error` message and
 * keep their socket.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startQueueDashboard, TEST_TOKENS, type QueueDashboard } from '../queue/queue-dashboard.js';
import { connect, wsUrl, type TestClient } from './ws-client.js';

let q: QueueDashboard;
let printerId: string;
const sockets: TestClient[] = [];

async function session(role: keyof typeof TEST_TOKENS): Promise<TestClient> {
  const client = connect(wsUrl(q.dash.url, `?token=${TEST_TOKENS[role]}`));
  sockets.push(client);
  await client.opened;
  assert.equal((await client.nextOfType('hello')).payload.role, role);
  return client;
}

async function plate(): Promise<Record<string, any>> {
  return (await q.dash.request('get', `/api/printers/${printerId}/plate`, { token: TEST_TOKENS.view })).json;
}

before(async () => {
  q = await startQueueDashboard();
  printerId = await q.addPrinter('B1', 'bambu-lan');
});

after(async () => {
  for (const s of sockets) s.ws.close();
  await q?.dash.cleanup();
});

test('a view session is refused with an error message; its socket stays open', async () => {
  const viewer = await session('view');
  viewer.send({ type: 'plate.clear', printer_id: printerId });
  const refused = await viewer.nextOfType('error');
  assert.equal(refused.payload.code, 'ERR_FORBIDDEN');
  assert.match(String(refused.payload.error), /print level/);
  assert.notEqual((await plate()).state, 'clear');
  viewer.send({ type: 'subscribe', types: ['printer.plate'] });
  assert.deepEqual((await viewer.nextOfType('subscribed')).payload.types, ['printer.plate']);
});

test('a print session clears the plate: the plate answered, printer.plate announced, the plate clear over REST', async () => {
  const watcher = await session('view');
  const operator = await session('print');
  operator.send({ type: 'plate.clear', printer_id: printerId });
  const answer = await operator.nextOfType('plate.cleared');
  assert.deepEqual([answer.payload.printer_id, answer.payload.state, answer.payload.by], [printerId, 'clear', 'print']);
  const event = await watcher.nextMatching('printer.plate', (p) => p.printer_id === printerId && p.state === 'clear', 'the plate cleared');
  assert.equal(event.payload.by, 'print');
  assert.deepEqual([(await plate()).state, (await plate()).by], ['clear', 'print']);
});

test('an unknown printer and a malformed message: error messages, the socket stays', async () => {
  const operator = await session('print');
  operator.send({ type: 'plate.clear', printer_id: 'nope' });
  assert.equal((await operator.nextOfType('error')).payload.code, 'ERR_NOT_FOUND');
  operator.send({ type: 'plate.clear' });
  const malformed = await operator.nextOfType('error');
  assert.deepEqual([malformed.payload.code, malformed.payload.error], ['ERR_VALIDATION', '"plate.clear" needs a "printer_id" string']);
  operator.send({ type: 'subscribe', types: null });
  assert.equal((await operator.nextOfType('subscribed')).type, 'subscribed');
});
