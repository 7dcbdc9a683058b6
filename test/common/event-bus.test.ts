import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventBus } from '../../appliance/common/event-bus.js';
import { createLogger } from '../../appliance/common/logger.js';

interface Events {
  'printer.status': { id: string; state: string };
  notification: { title: string };
}

test('listeners get their type, any-listeners get all, unsubscribe stops delivery', () => {
  const bus = new EventBus<Events>(createLogger({ name: 't', level: 'error', write: () => {} }));
  const seen: string[] = [];
  const off = bus.on('printer.status', (p) => seen.push(`status ${p.id} ${p.state}`));
  bus.onAny((type, payload) => seen.push(`any ${type} ${JSON.stringify(payload)}`));
  bus.emit('printer.status', { id: 'p1', state: 'idle' });
  bus.emit('notification', { title: 'hi' });
  off();
  bus.emit('printer.status', { id: 'p1', state: 'printing' });
  assert.deepEqual(seen, [
    'status p1 idle',
    'any printer.status {"id":"p1","state":"idle"}',
    'any notification {"title":"hi"}',
    'any printer.status {"id":"p1","state":"printing"}',
  ]);
  assert.equal(bus.listenerCount('printer.status'), 0);
});

test('a throwing listener is logged and the others still receive the event', () => {
  const lines: string[] = [];
  const bus = new EventBus<Events>(createLogger({ name: 't', level: 'error', write: (l) => lines.push(l) }));
  const got: string[] = [];
  bus.on('notification', () => {
    throw new Error('broken subscriber');
  });
  bus.on('notification', (p) => got.push(p.title));
  bus.emit('notification', { title: 'still here' });
  assert.deepEqual(got, ['still here']);
  assert.match(lines.join(''), /listener of notification failed: Error: broken subscriber/);
});
