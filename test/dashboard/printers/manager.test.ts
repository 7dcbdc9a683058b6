import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as settle } from 'node:timers/promises';
import { EventBus } from '../../../appliance/common/event-bus.js';
import { createLogger } from '../../../appliance/common/logger.js';
import type { DashboardEvents } from '../../../appliance/dashboard/events.js';
import { PermanentConnectError } from '../../../appliance/dashboard/printers/driver.js';
import { PrinterManager } from '../../../appliance/dashboard/printers/manager.js';
import type { PrinterRecord } from '../../../appliance/dashboard/printers/printer.js';
import type { AmsUpdate, PrintProgress } from '../../../appliance/dashboard/printers/status.js';
import { fakeDrivers, type FakeDrivers } from './fake-driver.js';
import { ManualClock } from './manual-clock.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });

function record(id: string, overrides: Partial<PrinterRecord> = {}): PrinterRecord {
  return {
    id,
    name: `printer ${id}`,
    type: 'marlin-serial',
    vendor: null,
    model: null,
    printer_profile: null,
    enabled: true,
    connection: { port: `/dev/tty${id}`, baud: 115200 },
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

interface Setup {
  manager: PrinterManager;
  fakes: FakeDrivers;
  clock: ManualClock;
  bus: EventBus<DashboardEvents>;
  events: { type: string; payload: unknown }[];
}

/** Event intervals of 0 send every change at once, leaving only retry timers on the clock. */
function setup(fakes = fakeDrivers(), intervals = { status: 0, progress: 0, ams: 0 }): Setup {
  const clock = new ManualClock();
  const bus = new EventBus<DashboardEvents>(log);
  const events: { type: string; payload: unknown }[] = [];
  bus.onAny((type, payload) => events.push({ type, payload }));
  const manager = new PrinterManager({
    drivers: fakes.registry,
    bus,
    log,
    dataDir: '/nonexistent',
    clock,
    backoff: { initialMs: 2_000, maxMs: 60_000, stableMs: 60_000 },
    intervals,
    disconnectTimeoutMs: 5_000,
  });
  return { manager, fakes, clock, bus, events };
}

const statusesOf = (events: Setup['events'], id: string) =>
  events
    .filter((e) => e.type === 'printer.status' && (e.payload as { printer_id: string }).printer_id === id)
    .map((e) => e.payload as { state: string; error: string | null });

test('start connects every enabled printer; disabled and driverless ones are offline saying why', async () => {
  const { manager, fakes } = setup();
  await manager.start([record('a'), record('b', { enabled: false }), record('c', { type: 'bambu-lan', connection: {} })]);
  await settle();
  assert.equal(fakes.created.length, 1);
  assert.equal(fakes.latest('a').connects, 1);
  assert.deepEqual([manager.status('a').state, manager.status('a').online], ['idle', true]);
  assert.deepEqual([manager.status('b').state, manager.status('b').error], ['offline', 'printer is disabled']);
  assert.deepEqual(
    [manager.status('c').state, manager.status('c').online, manager.status('c').error],
    ['offline', false, 'no driver for type bambu-lan'],
  );
  assert.deepEqual(manager.counts(), { managed: 3, online: 1 });
  await manager.stop();
  assert.equal(fakes.latest('a').disconnects, 1);
});

test('a rename keeps the driver; a connection change restarts it; disabling stops it; release forgets', async () => {
  const { manager, fakes } = setup();
  await manager.start([record('a')]);
  await settle();
  const first = fakes.latest('a');
  await manager.apply(record('a', { name: 'renamed' }));
  assert.equal(fakes.created.length, 1);
  assert.equal(first.disconnects, 0);

  await manager.apply(record('a', { connection: { port: '/dev/ttyUSB7', baud: 250000 } }));
  await settle();
  assert.equal(first.disconnects, 1, 'the old driver is stopped before the new one starts');
  const second = fakes.latest('a');
  assert.notEqual(second, first);
  assert.deepEqual(second.printer.connection, { port: '/dev/ttyUSB7', baud: 250000 });
  assert.equal(manager.status('a').online, true);

  await manager.apply(record('a', { enabled: false, connection: { port: '/dev/ttyUSB7', baud: 250000 } }));
  assert.equal(second.disconnects, 1);
  assert.equal(manager.status('a').error, 'printer is disabled');
  assert.equal(manager.driver('a'), null);

  await manager.apply(record('a', { connection: { port: '/dev/ttyUSB7', baud: 250000 } }));
  await settle();
  const third = fakes.latest('a');
  assert.equal(manager.driver('a'), third);
  await manager.release('a');
  assert.equal(third.disconnects, 1);
  assert.equal(manager.status('a').error, 'not started');
  assert.deepEqual(manager.counts(), { managed: 0, online: 0 });
});

test('applies in quick succession never leave two drivers running', async () => {
  const { manager, fakes } = setup();
  await Promise.all([
    manager.apply(record('a', { connection: { port: '/dev/ttyUSB1', baud: 115200 } })),
    manager.apply(record('a', { connection: { port: '/dev/ttyUSB2', baud: 115200 } })),
    manager.apply(record('a', { connection: { port: '/dev/ttyUSB3', baud: 115200 } })),
  ]);
  await settle();
  assert.equal(fakes.created.length, 3);
  assert.deepEqual(
    fakes.created.map((d) => d.connected),
    [false, false, true],
  );
  assert.equal(fakes.latest('a').printer.connection.port, '/dev/ttyUSB3');
  await manager.stop();
});

test('failed connects retry with exponential backoff, capped, and reset after success', async () => {
  const { manager, fakes, clock } = setup();
  const refused = () => new Error('ENOENT: no such device');
  fakes.plan('a', ...Array.from({ length: 7 }, refused));
  await manager.apply(record('a'));
  await settle();
  const driver = fakes.latest('a');
  const delays: number[] = [];
  for (let attempt = 1; attempt <= 7; attempt++) {
    assert.equal(driver.connects, attempt);
    assert.equal(manager.status('a').state, 'offline');
    assert.match(manager.status('a').error ?? '', /cannot connect: ENOENT/);
    const [delay] = clock.pendingDelays();
    delays.push(delay);
    clock.advance(delay - 1);
    await settle();
    assert.equal(driver.connects, attempt, 'not before the delay is up');
    clock.advance(1);
    await settle();
  }
  assert.deepEqual(delays, [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
  assert.equal(driver.connects, 8);
  assert.equal(manager.status('a').online, true, 'the eighth attempt succeeds');

  clock.advance(60_000);
  driver.events.disconnected({ message: 'cable unplugged', retry: true });
  assert.deepEqual([manager.status('a').state, manager.status('a').error], ['offline', 'cable unplugged']);
  assert.deepEqual(clock.pendingDelays(), [2_000], 'a connection that held starts the backoff over');
  await manager.stop();
  assert.deepEqual(clock.pendingDelays(), [], 'stop cancels the pending retry');
});

test('a flapping connection keeps backing off', async () => {
  const { manager, fakes, clock } = setup();
  await manager.apply(record('a'));
  await settle();
  const driver = fakes.latest('a');
  driver.events.disconnected({ message: 'reset', retry: true });
  assert.deepEqual(clock.pendingDelays(), [2_000]);
  clock.advance(2_000);
  await settle();
  driver.events.disconnected({ message: 'reset', retry: true });
  assert.deepEqual(clock.pendingDelays(), [4_000]);
  await manager.stop();
});

test('no retry after a permanent refusal until the settings change', async () => {
  const { manager, fakes, clock } = setup();
  fakes.plan('a', new PermanentConnectError('access code rejected'));
  await manager.apply(record('a'));
  await settle();
  assert.equal(manager.status('a').error, 'cannot connect: access code rejected');
  assert.deepEqual(clock.pendingDelays(), []);
  const driver = fakes.latest('a');
  driver.events.disconnected({ message: 'ignored: not connected', retry: true });
  assert.deepEqual(clock.pendingDelays(), []);

  fakes.plan('a');
  await manager.apply(record('a', { connection: { port: '/dev/ttyUSB5', baud: 115200 } }));
  await settle();
  assert.equal(manager.status('a').online, true);

  fakes.latest('a').events.disconnected({ message: 'locked out', retry: false });
  assert.equal(manager.status('a').error, 'locked out');
  assert.deepEqual(clock.pendingDelays(), []);
  await manager.stop();
});

test('driver events reach the bus stamped with the printer id, deduplicated and rate-limited', async () => {
  const { manager, fakes, clock, events } = setup(fakeDrivers(), { status: 250, progress: 1_000, ams: 1_000 });
  await manager.apply(record('a'));
  await settle();
  clock.advance(1_000);
  const driver = fakes.latest('a');
  assert.deepEqual(
    statusesOf(events, 'a').map((s) => s.state),
    ['connecting', 'idle'],
  );

  driver.events.status(driver.idleStatus({ printer_id: 'someone-else' }));
  driver.events.status(driver.idleStatus({ updated_at: '2030-01-01T00:00:00.000Z' }));
  assert.equal(statusesOf(events, 'a').length, 2, 'same status, new timestamp: nothing sent');
  assert.equal(events.filter((e) => e.type === 'printer.status').length, 2, 'the printer id is the manager’s, not the driver’s');

  for (let target = 200; target <= 210; target++) driver.events.status(driver.idleStatus({ temperatures: { tool0: { actual: 25, target } } }));
  assert.equal(statusesOf(events, 'a').length, 3, 'the first change goes out at once');
  clock.advance(250);
  const sent = statusesOf(events, 'a') as unknown as { temperatures: { tool0: { target: number } } }[];
  assert.deepEqual(
    sent.slice(2).map((s) => s.temperatures.tool0.target),
    [200, 210],
    'then only the newest, one interval later',
  );

  const progress: PrintProgress = {
    printer_id: 'x',
    file: 'cube.gcode',
    progress: 10,
    layer: 3,
    total_layers: 100,
    elapsed_s: 60,
    remaining_s: 600,
    updated_at: 'now',
  };
  driver.events.progress(progress);
  driver.events.progress({ ...progress, updated_at: 'later' });
  driver.events.progress({ ...progress, progress: 11 });
  const ams: AmsUpdate = { printer_id: 'x', units: [], external: null, active_tray: null, updated_at: 'now' };
  driver.events.ams(ams);
  driver.events.ams(ams);
  clock.advance(1_000);
  const progressEvents = events.filter((e) => e.type === 'print.progress').map((e) => e.payload as PrintProgress);
  assert.deepEqual(
    progressEvents.map((p) => [p.printer_id, p.progress]),
    [
      ['a', 10],
      ['a', 11],
    ],
  );
  assert.deepEqual(
    events.filter((e) => e.type === 'ams.update').map((e) => (e.payload as AmsUpdate).printer_id),
    ['a'],
  );

  driver.events.identity({ vendor: 'Creality', model: 'Ender-3 V2', firmware: 'Marlin 2.1.2' });
  assert.deepEqual(manager.identity('a'), { vendor: 'Creality', model: 'Ender-3 V2', firmware: 'Marlin 2.1.2' });
  await manager.stop();
});

test('events of a replaced driver are ignored', async () => {
  const { manager, fakes, clock, events } = setup();
  await manager.apply(record('a'));
  await settle();
  const old = fakes.latest('a');
  await manager.apply(record('a', { connection: { port: '/dev/ttyUSB9', baud: 115200 } }));
  await settle();
  clock.advance(1_000);
  const before = events.length;
  old.events.status(old.idleStatus({ state: 'printing' }));
  old.events.disconnected({ message: 'old one went away', retry: true });
  assert.equal(events.length, before);
  assert.equal(manager.status('a').state, 'idle');
  assert.deepEqual(clock.pendingDelays(), []);
  await manager.stop();
});

test('a driver that throws anywhere does not take the manager down', async () => {
  const { manager, fakes, clock, bus } = setup();
  fakes.failNextCreate('boom');
  fakes.plan('sync', { throwSync: new Error('port busy') });
  await manager.start([record('boom'), record('sync'), record('ok')]);
  await settle();
  assert.equal(manager.status('boom').error, 'driver failed to start: factory exploded');
  assert.deepEqual(clock.pendingDelays(), [2_000], 'the synchronous throw is retried like a failed connect');
  assert.equal(manager.status('sync').error, 'cannot connect: port busy');
  assert.equal(manager.status('ok').online, true);

  const ok = fakes.latest('ok');
  bus.on('printer.status', () => {
    throw new Error('a listener failed');
  });
  ok.events.status(ok.idleStatus({ state: 'printing' }));
  assert.equal(manager.status('ok').state, 'printing');
  assert.doesNotThrow(() => ok.events.status(null as never), 'a malformed event is logged, not thrown back into the driver');

  ok.statusThrows = true;
  ok.disconnectFails = true;
  await manager.apply(record('ok', { connection: { port: '/dev/ttyUSB4', baud: 115200 } }));
  await settle();
  assert.equal(fakes.latest('ok').connected, true, 'a failing disconnect does not block the restart');
  await manager.stop();
});

test('a driver whose disconnect hangs is abandoned after the timeout', async () => {
  const { manager, fakes, clock } = setup();
  await manager.apply(record('a'));
  await settle();
  fakes.latest('a').disconnectHangs = true;
  let released = false;
  const release = manager.release('a').then(() => (released = true));
  await settle();
  assert.equal(released, false);
  clock.advance(5_000);
  await release;
  assert.equal(manager.status('a').error, 'not started');
});

test('a connect that hangs is abandoned on stop, and the next apply starts cleanly', async () => {
  const { manager, fakes } = setup();
  fakes.plan('a', { hang: true });
  await manager.apply(record('a'));
  await settle();
  assert.equal(manager.status('a').state, 'connecting');
  await manager.stop();
  assert.equal(fakes.latest('a').disconnects, 1);
  await manager.apply(record('a'));
  assert.equal(fakes.created.length, 1, 'a stopped manager starts nothing');
});
