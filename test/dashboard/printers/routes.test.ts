import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { ServiceOptions } from '../../../appliance/dashboard/services.js';
import type { PrinterStatus } from '../../../appliance/dashboard/printers/status.js';
import { loginAs } from '../../fixtures/dashboard-auth.js';
import { startDashboardFixture, type DashboardFixture, type TestResponse } from '../../fixtures/dashboard.js';
import { fakeDrivers, type FakeDrivers } from './fake-driver.js';
import { bambuInput, marlinInput } from './sample-printers.js';
import { eventually } from '../../fixtures/eventually.js';
import { assertCleanLog, BAD_NAMES, FORGING_NAME, FORGING_NAME_ESCAPED, RAW_UNSAFE } from '../../fixtures/bad-names.js';

let dash: DashboardFixture;
let fakes: FakeDrivers;
let admin: string;
let viewer: string;
let printer: string;

/** The real composition, with the printers on fake drivers (Marlin only: Bambu has none). */
function printersOn(drivers: FakeDrivers): ServiceOptions {
  return { printers: { drivers: drivers.registry } };
}

async function start(dataDir?: string): Promise<void> {
  fakes = fakeDrivers();
  dash = await startDashboardFixture({ services: printersOn(fakes), config: { rate_limit: { enabled: false } }, ...(dataDir ? { dataDir } : {}) });
  admin = await loginAs(dash, 'admin');
  viewer = await loginAs(dash, 'view');
  printer = await loginAs(dash, 'print');
}

before(() => start());
after(() => dash.cleanup());

function issuePaths(response: TestResponse): string[] {
  return (response.json.details as { path: string }[]).map((issue) => issue.path);
}

test('each role on each endpoint: view reads, only admin writes, nobody without credentials', async () => {
  const created = await dash.request('POST', '/api/printers', {
    token: admin,
    body: marlinInput({ name: 'roles', connection: { port: '/dev/ttyROLES' } }),
  });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id as string;
  const reads = [
    ['GET', '/api/printers'],
    ['GET', `/api/printers/${id}`],
    ['GET', `/api/printers/${id}/status`],
  ] as const;
  const writes = [
    ['POST', '/api/printers', marlinInput({ name: 'never', connection: { port: '/dev/ttyNEVER' } })],
    ['PUT', `/api/printers/${id}`, { name: 'renamed by nobody' }],
    ['DELETE', `/api/printers/${id}`, undefined],
  ] as const;
  for (const [method, url] of reads) {
    assert.equal((await dash.request(method, url)).status, 401, `${method} ${url} without a token`);
    for (const token of [viewer, printer, admin]) assert.equal((await dash.request(method, url, { token })).status, 200, `${method} ${url}`);
  }
  for (const [method, url, body] of writes) {
    const none = await dash.request(method, url, { body });
    assert.equal(none.status, 401, `${method} ${url} without a token`);
    assert.equal(none.json.code, 'ERR_UNAUTHORIZED');
    for (const token of [viewer, printer]) {
      const refused = await dash.request(method, url, { token, body });
      assert.equal(refused.status, 403, `${method} ${url}`);
      assert.equal(refused.json.code, 'ERR_FORBIDDEN');
    }
  }
  assert.equal((await dash.request('DELETE', `/api/printers/${id}`, { token: admin })).status, 204);
});

test('a Marlin printer: created, connected by its driver, listed with its state', async () => {
  const created = await dash.request('POST', '/api/printers', { token: admin, body: marlinInput({ vendor: 'Prusa Research' }) });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id as string;
  assert.equal(created.json.name, 'Prusa MK3');
  assert.equal(created.json.vendor, 'Prusa Research');
  assert.deepEqual(created.json.connection, { port: marlinInput().connection.port, baud: 115200 });
  assert.equal(fakes.latest(id).connects, 1, 'the driver was started on create');

  await eventually('online', async () => (await dash.request('GET', `/api/printers/${id}`, { token: viewer })).json.online === true);
  const list = await dash.request('GET', '/api/printers', { token: viewer });
  const listed = (list.json.items as { id: string; vendor: string; online: boolean; state: string; status: PrinterStatus }[]).find(
    (p) => p.id === id,
  );
  assert.ok(listed);
  assert.deepEqual([listed.vendor, listed.online, listed.state, listed.status.printer_id], ['Prusa Research', true, 'idle', id]);

  const status = await dash.request('GET', `/api/printers/${id}/status`, { token: viewer });
  assert.deepEqual([status.json.printer_id, status.json.state, status.json.online], [id, 'idle', true]);
  assert.deepEqual(status.json.temperatures.bed, { actual: 20, target: 0 });

  fakes.latest(id).events.identity({ vendor: 'Prusa Research', model: 'MK3S', firmware: 'Prusa-Firmware 3.13.3' });
  const withIdentity = await dash.request('GET', `/api/printers/${id}`, { token: viewer });
  assert.deepEqual(withIdentity.json.identity, { vendor: 'Prusa Research', model: 'MK3S', firmware: 'Prusa-Firmware 3.13.3' });
});

test('a Bambu printer: access code never returned, vendor fixed, honestly offline without a driver', async () => {
  const created = await dash.request('POST', '/api/printers', { token: admin, body: bambuInput() });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id as string;
  for (const response of [
    created,
    await dash.request('GET', `/api/printers/${id}`, { token: admin }),
    await dash.request('GET', '/api/printers', { token: admin }),
  ]) {
    assert.doesNotMatch(response.text, /a7K2m9Q4/, 'the access code never leaves the server');
  }
  assert.equal(created.json.vendor, 'Bambu Lab');
  assert.deepEqual(created.json.connection, { host: '192.168.1.50', serial: '01P00A123456789', access_code: '***', access_code_set: true });
  assert.deepEqual([created.json.online, created.json.state, created.json.status.error], [false, 'offline', 'no driver for type bambu-lan']);

  const roundTrip = await dash.request('PUT', `/api/printers/${id}`, {
    token: admin,
    body: { connection: { ...created.json.connection, host: '192.168.1.77' } },
  });
  assert.equal(roundTrip.status, 200, roundTrip.text);
  assert.equal(roundTrip.json.connection.host, '192.168.1.77');
  const stored = JSON.parse(readFileSync(path.join(dash.dataDir, 'printers.json'), 'utf8')).printers.find((p: { id: string }) => p.id === id);
  assert.equal(stored.connection.access_code, 'a7K2m9Q4', '"***" kept the stored code');
});

test('bad input is 400 ERR_VALIDATION naming the fields; duplicates are 409; unknown ids 404', async () => {
  const post = (body: unknown) => dash.request('POST', '/api/printers', { token: admin, body });
  const badBaud = await post(marlinInput({ name: 'bad baud', connection: { port: '/dev/ttyX', baud: 12345 } }));
  assert.equal(badBaud.status, 400);
  assert.equal(badBaud.json.code, 'ERR_VALIDATION');
  assert.deepEqual(issuePaths(badBaud), ['body/connection/baud']);
  assert.deepEqual(issuePaths(await post(bambuInput({ name: 'bad serial', connection: { ...bambuInput().connection, serial: 'short' } }))), [
    'body/connection/serial',
  ]);
  assert.deepEqual(issuePaths(await post(bambuInput({ name: 'bad host', connection: { ...bambuInput().connection, host: 'http://x' } }))), [
    'body/connection/host',
  ]);
  assert.deepEqual(issuePaths(await post(bambuInput({ name: 'bad ca', connection: { ...bambuInput().connection, ca: 'nope' } }))), [
    'body/connection/ca',
  ]);
  assert.deepEqual(issuePaths(await post({ ...marlinInput(), type: 'octoprint' })), ['body/type']);
  assert.deepEqual(issuePaths(await post({ type: 'marlin-serial', connection: { port: '/dev/ttyZ' } })), ['body/name']);
  const malformed = await dash.request('POST', '/api/printers', { token: admin, body: '{"name":', headers: { 'content-type': 'application/json' } });
  assert.equal(malformed.status, 400);

  const first = await post(marlinInput({ name: 'Twin', connection: { port: '/dev/ttyTWIN' } }));
  assert.equal(first.status, 201);
  const twinName = await post(marlinInput({ name: 'twin', connection: { port: '/dev/ttyOTHER' } }));
  assert.deepEqual([twinName.status, twinName.json.code, issuePaths(twinName)], [409, 'ERR_CONFLICT', ['body/name']]);
  const twinPort = await post(marlinInput({ name: 'Other', connection: { port: '/dev/ttyTWIN' } }));
  assert.deepEqual([twinPort.status, issuePaths(twinPort)], [409, ['body/connection/port']]);

  const unknown = '0123456789abcdef';
  for (const [method, url, body] of [
    ['GET', `/api/printers/${unknown}`, undefined],
    ['GET', `/api/printers/${unknown}/status`, undefined],
    ['PUT', `/api/printers/${unknown}`, { name: 'x' }],
    ['DELETE', `/api/printers/${unknown}`, undefined],
    ['GET', '/api/printers/not-even-hex', undefined],
  ] as const) {
    const response = await dash.request(method, url, { token: admin, body });
    assert.deepEqual([response.status, response.json.code], [404, 'ERR_NOT_FOUND'], `${method} ${url}`);
  }
});

test(
  'names, vendors and models with bidirectional, zero-width, separator or control characters are 400 naming the code point; ' +
    'nothing stored changes',
  async () => {
    const kept = await dash.request('POST', '/api/printers', {
      token: admin,
      body: marlinInput({ name: 'Kept', vendor: 'Prusa', connection: { port: '/dev/ttyKEPT' } }),
    });
    assert.equal(kept.status, 201, kept.text);
    const id = kept.json.id as string;
    const stored = readFileSync(path.join(dash.dataDir, 'printers.json'), 'utf8');
    const refused = (response: TestResponse, field: string, problem: string) => {
      assert.deepEqual(
        [response.status, response.json.code, response.json.error],
        [400, 'ERR_VALIDATION', `body/${field} ${problem}`],
        response.text,
      );
      assert.deepEqual(response.json.details, [{ path: `body/${field}`, message: problem }]);
    };
    for (const [bad, codePoint] of BAD_NAMES) {
      const problem = `contains ${codePoint}`;
      refused(
        await dash.request('POST', '/api/printers', { token: admin, body: marlinInput({ name: bad, connection: { port: '/dev/ttyBAD' } }) }),
        'name',
        problem,
      );
      refused(await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { name: bad } }), 'name', problem);
      refused(await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { vendor: bad } }), 'vendor', problem);
      refused(await dash.request('POST', '/api/printers', { token: admin, body: bambuInput({ name: 'model test', model: bad }) }), 'model', problem);
    }
    refused(
      await dash.request('POST', '/api/printers', {
        token: admin,
        body: marlinInput({ name: '\u00a0 \u3000', connection: { port: '/dev/ttyBAD' } }),
      }),
      'name',
      'must not be only whitespace',
    );

    assert.equal((await dash.request('GET', '/api/health')).status, 200);
    assert.equal(readFileSync(path.join(dash.dataDir, 'printers.json'), 'utf8'), stored, 'the state file is untouched');
    const again = await dash.request('GET', `/api/printers/${id}`, { token: viewer });
    assert.deepEqual([again.status, again.json.name, again.json.vendor, again.json.updated_at], [200, 'Kept', 'Prusa', kept.json.updated_at]);
    const names = (await dash.request('GET', '/api/printers', { token: viewer })).json.items.map((p: { name: string }) => p.name) as string[];
    assert.ok(
      names.every((name) => !RAW_UNSAFE.test(name)),
      names.join(', '),
    );
  },
);

test('names are stored trimmed and NFC-normalised: the same name typed another way is a duplicate', async () => {
  const decomposed = await dash.request('POST', '/api/printers', {
    token: admin,
    body: marlinInput({ name: '  Cafe\u0301 3D\u00a0', vendor: ' Cre\u0301ality ', model: 'Ender\u00a0', connection: { port: '/dev/ttyCAFE' } }),
  });
  assert.equal(decomposed.status, 201, decomposed.text);
  assert.deepEqual([decomposed.json.name, decomposed.json.vendor, decomposed.json.model], ['Caf\u00e9 3D', 'Cr\u00e9ality', 'Ender']);
  const composed = await dash.request('POST', '/api/printers', {
    token: admin,
    body: marlinInput({ name: 'caf\u00e9 3d', connection: { port: '/dev/ttyCAFE2' } }),
  });
  assert.deepEqual([composed.status, issuePaths(composed)], [409, ['body/name']]);
  const renamed = await dash.request('PUT', `/api/printers/${decomposed.json.id}`, { token: admin, body: { name: ' Nai\u0308ve ' } });
  assert.deepEqual([renamed.status, renamed.json.name], [200, 'Na\u00efve']);
});

test('PUT restarts the driver only when its settings change; DELETE stops it first', async () => {
  const created = await dash.request('POST', '/api/printers', {
    token: admin,
    body: marlinInput({ name: 'Ender', connection: { port: '/dev/ttyENDER' } }),
  });
  const id = created.json.id as string;
  const first = fakes.latest(id);
  const renamed = await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { name: 'Ender 3' } });
  assert.deepEqual([renamed.status, renamed.json.name], [200, 'Ender 3']);
  assert.equal(fakes.latest(id), first, 'a rename keeps the driver');

  const moved = await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { connection: { baud: 250000 } } });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(moved.json.connection, { port: '/dev/ttyENDER', baud: 250000 });
  assert.equal(first.disconnects, 1);
  const second = fakes.latest(id);
  assert.notEqual(second, first);
  assert.equal(second.printer.connection.baud, 250000);

  const disabled = await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { enabled: false } });
  assert.deepEqual([disabled.json.enabled, disabled.json.online, disabled.json.status.error], [false, false, 'printer is disabled']);
  assert.equal(second.disconnects, 1);

  const bad = await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { connection: { baud: 7 } } });
  assert.deepEqual([bad.status, issuePaths(bad)], [400, ['body/connection/baud']]);

  assert.equal((await dash.request('PUT', `/api/printers/${id}`, { token: admin, body: { enabled: true } })).status, 200);
  const third = fakes.latest(id);
  assert.equal((await dash.request('DELETE', `/api/printers/${id}`, { token: admin })).status, 204);
  assert.equal(third.disconnects, 1);
  assert.equal((await dash.request('GET', `/api/printers/${id}`, { token: admin })).status, 404);
  const list = await dash.request('GET', '/api/printers', { token: admin });
  assert.equal(
    (list.json.items as { id: string }[]).some((p) => p.id === id),
    false,
  );
});

test('status changes reach the event bus, once per change', async () => {
  const created = await dash.request('POST', '/api/printers', {
    token: admin,
    body: marlinInput({ name: 'bus', connection: { port: '/dev/ttyBUS' } }),
  });
  const id = created.json.id as string;
  const seen: PrinterStatus[] = [];
  const unsubscribe = dash.server.context.bus.on('printer.status', (status) => {
    if (status.printer_id === id) seen.push(status);
  });
  try {
    const driver = fakes.latest(id);
    await eventually('online', async () => (await dash.request('GET', `/api/printers/${id}`, { token: admin })).json.online === true);
    const printing = driver.idleStatus({
      state: 'printing',
      job: { file: 'cube.gcode', progress: 5, layer: 2, total_layers: 40, elapsed_s: 30, remaining_s: 570 },
    });
    driver.events.status(printing);
    driver.events.status({ ...printing, updated_at: new Date(Date.now() + 1000).toISOString() });
    await eventually('printing on the bus', async () => seen.some((s) => s.state === 'printing'));
    assert.equal(seen.filter((s) => s.state === 'printing').length, 1);
    const status = await dash.request('GET', `/api/printers/${id}/status`, { token: viewer });
    assert.deepEqual(status.json.job, printing.job);
  } finally {
    unsubscribe();
  }
});

test('the OpenAPI description lists one connection schema per type; system info has the printers block', async () => {
  const doc = (await dash.request('GET', '/api/openapi.json')).json;
  const post = doc.paths['/api/printers'].post;
  const body = post.requestBody.content['application/json'].schema;
  assert.deepEqual(
    body.oneOf.map((branch: { properties: { type: { const: string } } }) => branch.properties.type.const),
    ['marlin-serial', 'bambu-lan'],
  );
  assert.ok(doc.paths['/api/printers/{id}/status'].get);
  const info = await dash.request('GET', '/api/system/info', { token: viewer });
  assert.deepEqual(
    info.json.printers.types.map((t: { type: string; driver: boolean }) => [t.type, t.driver]),
    [
      ['marlin-serial', true],
      ['bambu-lan', false],
    ],
  );
});

test('printers and their drivers come back after a restart', async () => {
  const created = await dash.request('POST', '/api/printers', {
    token: admin,
    body: marlinInput({ name: 'survivor', connection: { port: '/dev/ttySURVIVOR' } }),
  });
  const id = created.json.id as string;
  const dataDir = dash.dataDir;
  await dash.stop();
  assert.equal(fakes.latest(id).disconnects, 1, 'stop disconnects every driver');
  await start(dataDir);
  const again = await dash.request('GET', `/api/printers/${id}`, { token: viewer });
  assert.deepEqual([again.status, again.json.name], [200, 'survivor']);
  assert.equal(fakes.latest(id).connects, 1, 'the new manager started it');
});

test('a name stored before names were checked is logged escaped: no forged line, no terminal control, no hidden text', async () => {
  const at = new Date(0).toISOString();
  const old = {
    id: 'e71e000000000001',
    name: FORGING_NAME,
    type: 'marlin-serial',
    vendor: null,
    model: null,
    printer_profile: null,
    enabled: true,
    connection: { port: '/dev/ttyOLD', baud: 115200 },
    created_at: at,
    updated_at: at,
  };
  const earlier = await startDashboardFixture({
    services: printersOn(fakeDrivers()),
    config: { rate_limit: { enabled: false } },
    files: { 'printers.json': JSON.stringify({ printers: [old] }) },
  });
  try {
    const token = await loginAs(earlier, 'admin');
    const connectedLine = `printer ${FORGING_NAME_ESCAPED} (${old.id}): connected`;
    const connections = () => earlier.logs().split(connectedLine).length - 1;
    await eventually('connected at start', async () => connections() === 1);
    for (const enabled of [false, true]) {
      assert.equal((await earlier.request('PUT', `/api/printers/${old.id}`, { token, body: { enabled } })).status, 200);
    }
    await eventually('connected again after the change', async () => connections() === 2);
    assertCleanLog(earlier.logs());
    assert.equal((await earlier.request('GET', '/api/health')).status, 200);
    const kept = await earlier.request('GET', `/api/printers/${old.id}`, { token });
    assert.equal(kept.json.name, FORGING_NAME, 'the stored record is kept as it was');
  } finally {
    await earlier.cleanup();
  }
});

test('GET /api/printer-types describes each type: its connection schema, defaults and secrets, for every role', async () => {
  assert.equal((await dash.request('GET', '/api/printer-types')).status, 401);
  const listed = await dash.request('GET', '/api/printer-types', { token: viewer });
  assert.equal(listed.status, 200, listed.text);
  const types = listed.json.items as { type: string; fixed_vendor: string | null; connection: any; defaults: any; secrets: string[] }[];
  assert.deepEqual(types.map((t) => t.type).sort(), ['bambu-lan', 'marlin-serial']);
  const bambu = types.find((t) => t.type === 'bambu-lan')!;
  assert.equal(bambu.fixed_vendor, 'Bambu Lab');
  assert.deepEqual(bambu.secrets, ['access_code']);
  assert.deepEqual(bambu.connection.required, ['host', 'serial', 'access_code']);
  const marlin = types.find((t) => t.type === 'marlin-serial')!;
  assert.equal(marlin.fixed_vendor, null);
  assert.equal(marlin.defaults.baud, 115200);
  assert.ok(marlin.connection.properties.baud.enum.includes(250000));
});
