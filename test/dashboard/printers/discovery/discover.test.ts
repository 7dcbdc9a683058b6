/**
 * GET /api/printers/discover through a real dashboard: the virtual Bambu Lab printer's SSDP
 * announcements received on loopback, offered for adding and then shown as added; serial ports
 * (socat ptys, which udev does not list, handed in as the port list) probed with M115: the
 * virtual Marlin identified with its capabilities, a silent port found not to be Marlin, and the
 * port of a configured, connected printer left alone (it stays connected).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { SerialPortEntry } from '../../../../appliance/hardware/serial/port-list.js';
import { DriverRegistry } from '../../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { eventually } from '../../../fixtures/eventually.js';
import { startVirtualBambu, type VirtualBambu } from '../../../fixtures/virtual-bambu.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../../fixtures/virtual-marlin.js';
import { TEST_TIMINGS } from '../families/marlin-serial/driver-harness.js';

let bambu: VirtualBambu;
let loose: VirtualMarlinFixture;
let configured: VirtualMarlinFixture;
let silent: ChildProcess;
let silentDir: string;
let silentPort: string;
let dash: DashboardFixture;
let configuredId: string;

const admin = { token: TEST_TOKENS.admin };

function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

const pty = (p: string, manufacturer: string | null = null): SerialPortEntry => ({
  path: p,
  by_id_path: null,
  vendor_id: manufacturer ? '2341' : null,
  product_id: manufacturer ? '0042' : null,
  manufacturer,
  serial_number: null,
});

before(async () => {
  const ssdpPort = await freeUdpPort();
  bambu = await startVirtualBambu({ name: 'Farm P1S', ssdp: { address: '127.0.0.1', port: ssdpPort, intervalMs: 200 } });
  [loose, configured] = await Promise.all([startVirtualMarlin(), startVirtualMarlin()]);
  silentDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-silent-pty-'));
  silentPort = path.join(silentDir, 'silent');
  silent = spawn('socat', [`PTY,link=${silentPort},raw,echo=0`, `PTY,link=${path.join(silentDir, 'other')},raw,echo=0`], { stdio: 'ignore' });
  await eventually('the silent pty exists', () => existsSync(silentPort));

  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory(TEST_TIMINGS));
  dash = await startDashboardFixture({
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    services: {
      printers: { drivers },
      discovery: {
        ssdpPort,
        // The configured printer's port is listed by where its link points, as udev would list it.
        listPorts: async () => [pty(loose.hostPath, 'Arduino (www.arduino.cc)'), pty(silentPort), pty(realpathSync(configured.hostPath))],
        probe: { timeoutMs: 2500, repeatMs: 300 },
      },
    },
  });
  const created = await dash.request('POST', '/api/printers', {
    ...admin,
    body: { name: 'Configured Marlin', type: 'marlin-serial', connection: { port: configured.hostPath } },
  });
  assert.equal(created.status, 201, created.text);
  configuredId = created.json.id;
  await eventually(
    'the configured printer is connected',
    async () => (await dash.request('GET', `/api/printers/${configuredId}`, admin)).json.online,
  );
});

after(async () => {
  await dash?.cleanup();
  silent?.kill();
  await Promise.all([bambu?.stop(), loose?.stop(), configured?.stop()]);
  if (silentDir) rmSync(silentDir, { recursive: true, force: true });
});

test('admins only; /api/printers/:id still answers beside it', async () => {
  assert.equal((await dash.request('GET', '/api/printers/discover?probe=false', { token: TEST_TOKENS.print })).status, 403);
  assert.equal((await dash.request('GET', `/api/printers/${configuredId}`, admin)).json.name, 'Configured Marlin');
});

test('a Bambu Lab printer is found from its announcements, offered, and once added shown as added', async () => {
  const heard = await eventually('the virtual printer was heard', async () => {
    const { json } = await dash.request('GET', '/api/printers/discover?probe=false', admin);
    return json.bambu.printers.find((p: any) => p.serial === bambu.serial);
  });
  assert.equal(heard.host, '127.0.0.1');
  assert.equal(heard.model, 'P1S');
  assert.equal(heard.model_code, 'C12');
  assert.equal(heard.name, 'Farm P1S');
  assert.equal(heard.firmware, '01.08.02.00');
  assert.equal(heard.connect_mode, 'lan');
  assert.equal(heard.added, false);
  assert.deepEqual(heard.add, { name: 'Farm P1S', type: 'bambu-lan', model: 'P1S', connection: { host: '127.0.0.1', serial: bambu.serial } });

  // One click plus the access code (and this simulator's ports, which a real printer does not need).
  const body = {
    ...heard.add,
    connection: { ...heard.add.connection, access_code: bambu.accessCode, mqtt_port: bambu.mqttPort, ftps_port: bambu.ftpsPort },
  };
  const added = await dash.request('POST', '/api/printers', { ...admin, body });
  assert.equal(added.status, 201, added.text);
  const again = (await dash.request('GET', '/api/printers/discover?probe=false', admin)).json.bambu;
  assert.equal(again.listening, true);
  const same = again.printers.find((p: any) => p.serial === bambu.serial);
  assert.equal(same.added, true);
  assert.equal(same.printer_id, added.json.id);
  assert.equal(same.add, null);
});

test('serial ports: Marlin identified by M115, a silent port is not Marlin, a configured port is not touched', async () => {
  const { json } = await dash.request('GET', '/api/printers/discover', admin);
  assert.equal(json.serial.error, null);
  const byPath = new Map(json.serial.ports.map((p: any) => [p.path, p]));

  const marlin: any = byPath.get(loose.hostPath);
  assert.equal(marlin.in_use_by, null);
  assert.equal(marlin.manufacturer, 'Arduino (www.arduino.cc)');
  assert.equal(marlin.probe.marlin, true, JSON.stringify(marlin.probe));
  assert.match(marlin.probe.firmware, /^Marlin /);
  assert.equal(marlin.probe.machine_type, 'Printyard Virtual Marlin');
  assert.equal(marlin.probe.extruder_count, 1);
  assert.equal(marlin.probe.capabilities.AUTOREPORT_TEMP, true);
  assert.deepEqual(marlin.add, {
    name: 'Printyard Virtual Marlin',
    type: 'marlin-serial',
    model: 'Printyard Virtual Marlin',
    connection: { port: loose.hostPath, baud: 115200 },
  });

  const quiet: any = byPath.get(silentPort);
  assert.equal(quiet.probe.marlin, false);
  assert.match(quiet.probe.reason, /no Marlin answer to M115/);
  assert.equal(quiet.add, null);

  const used: any = byPath.get(realpathSync(configured.hostPath));
  assert.equal(used.in_use_by, configuredId);
  assert.equal(used.probe, null, 'never opened');
  const state = (await dash.request('GET', `/api/printers/${configuredId}`, admin)).json;
  assert.equal(state.online, true, 'the configured printer kept its connection');
  assert.doesNotMatch(dash.logs(), /Configured Marlin.*(lost|disconnected)/);
});

test('probe=false lists the ports without opening them', async () => {
  const { json } = await dash.request('GET', '/api/printers/discover?probe=false', admin);
  assert.ok(json.serial.ports.length === 3 && json.serial.ports.every((p: any) => p.probe === null && p.add === null));
});
