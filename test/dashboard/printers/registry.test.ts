import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { AppError } from '../../../appliance/common/errors.js';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { maskSecrets } from '../../../appliance/dashboard/printers/printer.js';
import { bambuLan } from '../../../appliance/dashboard/printers/families/bambu-lan/family.js';
import { PrinterRegistry } from '../../../appliance/dashboard/printers/registry.js';
import { bambuInput, marlinInput, TEST_CA_PEM } from './sample-printers.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let dir: string;
let registry: PrinterRegistry;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-printers-'));
  registry = await PrinterRegistry.open(new JsonStores(dir, log));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `action`, expecting an AppError with `status`; returns the paths its details name. */
async function rejected(action: () => Promise<unknown>, status: number): Promise<string[]> {
  try {
    await action();
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    assert.equal(err.status, status, err.message);
    return ((err.details ?? []) as { path: string }[]).map((issue) => issue.path);
  }
  assert.fail('expected a rejection');
}

test('a marlin-serial printer gets an id, defaults and no fixed vendor', async () => {
  const printer = await registry.create(marlinInput({ vendor: 'Prusa Research', printer_profile: 'Original Prusa MK3S' }));
  assert.match(printer.id, /^[0-9a-f]{16}$/);
  assert.equal(printer.enabled, true);
  assert.equal(printer.vendor, 'Prusa Research');
  assert.equal(printer.model, null);
  assert.equal(printer.printer_profile, 'Original Prusa MK3S');
  assert.deepEqual(printer.connection, { port: marlinInput().connection.port, baud: 115200 });
  assert.equal(printer.created_at, printer.updated_at);
});

test('a bambu-lan printer is stored normalised, its vendor fixed', async () => {
  const printer = await registry.create(
    bambuInput({ connection: { host: 'Printer-1.LAN', serial: '01p00a123456789', access_code: 'ab12CD34', ca: TEST_CA_PEM } }),
  );
  assert.equal(printer.vendor, null, 'the type fixes the vendor, nothing is stored');
  assert.deepEqual(printer.connection, { host: 'printer-1.lan', serial: '01P00A123456789', access_code: 'ab12CD34', ca: TEST_CA_PEM });
});

test('records survive a reopen from the JSON file', async () => {
  const created = await registry.create(marlinInput());
  const again = await PrinterRegistry.open(new JsonStores(dir, log));
  assert.deepEqual(again.get(created.id), created);
  assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'printers.json'), 'utf8')).printers, [created]);
});

test('a corrupt printers.json is moved aside and the registry starts empty', async () => {
  writeFileSync(path.join(dir, 'printers.json'), '{"printers": "nope"}');
  const stores = new JsonStores(dir, log);
  const fresh = await PrinterRegistry.open(stores);
  assert.deepEqual(fresh.list(), []);
  assert.equal(stores.problems().length, 1);
  assert.match(stores.problems()[0].reason, /printers/);
  assert.ok(readdirSync(dir).some((name) => name.startsWith('printers.json.corrupt-')));
});

test('common fields are checked, each issue naming its field', async () => {
  assert.deepEqual(await rejected(() => registry.create({}), 400), ['body/name', 'body/type', 'body/connection']);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ name: '   ' })), 400), ['body/name']);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ name: 'x'.repeat(65) })), 400), ['body/name']);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ name: 'tab\there' })), 400), ['body/name']);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ type: 'klipper' })), 400), ['body/type']);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ enabled: 'yes' })), 400), ['body/enabled']);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ model: '' })), 400), ['body/model']);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ colour: 'red' })), 400), ['body/colour']);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ connection: 'ttyUSB0' })), 400), ['body/connection']);
  assert.deepEqual(await rejected(() => registry.create(bambuInput({ vendor: 'Creality' })), 400), ['body/vendor']);
});

test('marlin-serial: port must be an absolute normalised path, baud a standard rate', async () => {
  const bad = async (connection: Record<string, unknown>) => rejected(() => registry.create(marlinInput({ connection })), 400);
  assert.deepEqual(await bad({}), ['body/connection/port']);
  assert.deepEqual(await bad({ port: 'ttyUSB0' }), ['body/connection/port']);
  assert.deepEqual(await bad({ port: '/dev/../etc/passwd' }), ['body/connection/port']);
  assert.deepEqual(await bad({ port: '/dev//ttyUSB0' }), ['body/connection/port']);
  assert.deepEqual(await bad({ port: '/dev/ttyUSB0\n' }), ['body/connection/port']);
  assert.deepEqual(await bad({ port: '/dev/ttyUSB0', baud: 115201 }), ['body/connection/baud']);
  assert.deepEqual(await bad({ port: '/dev/ttyUSB0', baud: '115200' }), ['body/connection/baud']);
  assert.deepEqual(await bad({ port: '/dev/ttyUSB0', host: '10.0.0.1' }), ['body/connection/host']);
  const fast = await registry.create(marlinInput({ connection: { port: '/dev/ttyACM0', baud: 250000 } }));
  assert.deepEqual(fast.connection, { port: '/dev/ttyACM0', baud: 250000 });
});

test('bambu-lan: host, serial, access code and CA are each checked', async () => {
  const base = bambuInput().connection;
  const bad = async (connection: Record<string, unknown>) =>
    rejected(() => registry.create(bambuInput({ connection: { ...base, ...connection } })), 400);
  for (const host of ['http://10.0.0.5', '10.0.0.5:8883', '[fe80::1]', '999.1.1.1', 'bad_host.lan', '-lead.lan', '']) {
    assert.deepEqual(await bad({ host }), ['body/connection/host'], host);
  }
  for (const [index, host] of ['10.0.0.5', 'fe80::1', 'x1c.local', 'printer.'].entries()) {
    const serial = `01S00C00000000${index}`;
    assert.equal((await registry.create(bambuInput({ name: `ok ${host}`, connection: { ...base, host, serial } }))).connection.host, host);
  }
  for (const serial of ['01P00A12345678', '01P00A1234567890', '01P00A12345678-']) {
    assert.deepEqual(await bad({ serial }), ['body/connection/serial'], serial);
  }
  for (const access_code of ['1234567', '123456789', '1234 678', '***']) {
    assert.deepEqual(await bad({ access_code }), ['body/connection/access_code'], access_code);
  }
  assert.deepEqual(await bad({ ca: 'not a certificate' }), ['body/connection/ca']);
  assert.deepEqual(await bad({ ca: TEST_CA_PEM.replace('MIIBjjCC', 'MIIBjjXX') }), ['body/connection/ca']);
  assert.deepEqual(await bad({ ca: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' }), ['body/connection/ca']);
  assert.deepEqual(await bad({ ca: `${TEST_CA_PEM}trailing junk` }), ['body/connection/ca']);
  const bundle = await registry.create(
    bambuInput({ name: 'bundle', connection: { ...base, serial: '01P00A000000001', ca: TEST_CA_PEM + TEST_CA_PEM } }),
  );
  assert.equal(bundle.connection.ca, `${(TEST_CA_PEM + TEST_CA_PEM).trim()}\n`);
});

test('duplicate names (ignoring case), serial devices and printer serials are conflicts', async () => {
  const first = await registry.create(marlinInput());
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ name: 'PRUSA mk3', connection: { port: '/dev/ttyUSB9' } })), 409), [
    'body/name',
  ]);
  assert.deepEqual(await rejected(() => registry.create(marlinInput({ name: 'other' })), 409), ['body/connection/port']);
  await registry.create(bambuInput());
  assert.deepEqual(
    await rejected(
      () => registry.create(bambuInput({ name: 'P1S right', connection: { ...bambuInput().connection, serial: '01p00a123456789' } })),
      409,
    ),
    ['body/connection/serial'],
  );
  const second = await registry.create(marlinInput({ name: 'Ender', connection: { port: '/dev/ttyUSB1' } }));
  assert.deepEqual(await rejected(() => registry.update(second.id, { name: 'prusa MK3' }), 409), ['body/name']);
  assert.deepEqual(await rejected(() => registry.update(second.id, { connection: { port: first.connection.port } }), 409), ['body/connection/port']);
  assert.equal((await registry.update(first.id, { name: 'Prusa mk3' })).name, 'Prusa mk3', 'a printer may change the case of its own name');
});

test('secrets are masked in the view; "***" and omission keep the stored value', async () => {
  const printer = await registry.create(bambuInput());
  const shown = maskSecrets(bambuLan, printer.connection);
  assert.deepEqual(shown, { host: '192.168.1.50', serial: '01P00A123456789', access_code: '***', access_code_set: true });
  assert.doesNotMatch(JSON.stringify(shown), /a7K2m9Q4/);

  const roundTrip = await registry.update(printer.id, { connection: { ...shown, host: '192.168.1.51' } });
  assert.equal(roundTrip.connection.access_code, 'a7K2m9Q4');
  assert.equal(roundTrip.connection.host, '192.168.1.51');
  const omitted = await registry.update(printer.id, { connection: { host: '192.168.1.52' } });
  assert.equal(omitted.connection.access_code, 'a7K2m9Q4');
  const changed = await registry.update(printer.id, { connection: { access_code: '87654321' } });
  assert.equal(changed.connection.access_code, '87654321');
});

test('partial updates: null clears optional fields, nothing changed keeps updated_at', async () => {
  const printer = await registry.create(bambuInput({ connection: { ...bambuInput().connection, ca: TEST_CA_PEM } }));
  const same = await registry.update(printer.id, { name: printer.name, connection: { access_code: '***' } });
  assert.equal(same.updated_at, printer.updated_at);
  const cleared = await registry.update(printer.id, { model: null, connection: { ca: null } });
  assert.equal(cleared.model, null);
  assert.equal('ca' in cleared.connection, false);
  assert.deepEqual(await rejected(() => registry.update(printer.id, { connection: { host: null } }), 400), ['body/connection/host']);
  assert.deepEqual(await rejected(() => registry.update(printer.id, { connection: { port: '/dev/ttyUSB0' } }), 400), ['body/connection/port']);
  assert.deepEqual(await rejected(() => registry.update(printer.id, { enabled: null }), 400), ['body/enabled']);
});

test('changing the type needs a complete new connection block, secrets included', async () => {
  const printer = await registry.create(marlinInput({ vendor: 'Prusa Research' }));
  assert.deepEqual(await rejected(() => registry.update(printer.id, { type: 'bambu-lan' }), 400), ['body/connection']);
  assert.deepEqual(
    await rejected(
      () => registry.update(printer.id, { type: 'bambu-lan', connection: { host: '10.0.0.9', serial: '01P00A123456789', access_code: '***' } }),
      400,
    ),
    ['body/connection/access_code'],
  );
  const moved = await registry.update(printer.id, { type: 'bambu-lan', connection: bambuInput().connection });
  assert.equal(moved.type, 'bambu-lan');
  assert.equal(moved.vendor, null, 'the configured vendor gives way to the fixed one');
  assert.deepEqual(moved.connection, { host: '192.168.1.50', serial: '01P00A123456789', access_code: 'a7K2m9Q4' });
  const back = await registry.update(printer.id, { type: 'marlin-serial', connection: { port: '/dev/ttyUSB3' } });
  assert.deepEqual(back.connection, { port: '/dev/ttyUSB3', baud: 115200 });
});

test('unknown ids are 404; removal forgets the record', async () => {
  assert.deepEqual(await rejected(() => registry.update('0000000000000000', { name: 'x' }), 404), []);
  const printer = await registry.create(marlinInput());
  await registry.remove(printer.id);
  assert.equal(registry.get(printer.id), undefined);
  assert.throws(
    () => registry.require(printer.id),
    (err: AppError) => err.status === 404 && err.code === 'ERR_NOT_FOUND',
  );
});
