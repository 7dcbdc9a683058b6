/**
 * "Find printers" on the add-printer form in Chromium against a real dashboard (auth, printers, live,
 * discovery, web): the virtual Bambu Lab printer heard over SSDP on loopback and the virtual
 * Marlin on a pty (handed in as the port list, which udev does not list) probed with M115. "Use"
 * fills the form — the Bambu printer's access code still asked for, its field focused — and the
 * printers added that way are the ones found; a found printer already added says so.
 */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { authFeature, liveFeature, printerDiscoveryFeature, printersFeature, webFeature } from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { checkPage, launchChromium, openSignedIn, waitForPath } from './browser.js';

const ADMIN = { username: 'finder', password: 'Spool-Yard-4711' };
const WAIT_MS = 20_000;

let dash: DashboardFixture;
let browser: Browser;
let bambu: VirtualBambu;
let marlin: VirtualMarlinFixture;
let token = '';

function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

before(async () => {
  const ssdpPort = await freeUdpPort();
  [bambu, marlin, browser] = await Promise.all([
    startVirtualBambu({ name: 'Farm P1S', ssdp: { address: '127.0.0.1', port: ssdpPort, intervalMs: 200 } }),
    startVirtualMarlin(),
    launchChromium(),
  ]);
  dash = await startDashboardFixture({
    features: [authFeature, printersFeature, liveFeature, printerDiscoveryFeature, webFeature],
    services: {
      discovery: {
        ssdpPort,
        listPorts: async () => [
          { path: marlin.hostPath, by_id_path: null, vendor_id: '2341', product_id: '0042', manufacturer: 'Arduino', serial_number: null },
        ],
        probe: { timeoutMs: 2500, repeatMs: 300 },
      },
    },
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
  const setup = await dash.request('post', '/api/auth/setup', { body: ADMIN });
  assert.ok(setup.status < 300, setup.text);
  token = (await dash.request('post', '/api/auth/login', { body: ADMIN })).json.token;
});

after(async () => {
  await browser?.close();
  await dash?.cleanup();
  await Promise.all([bambu?.stop(), marlin?.stop()]);
});

const printers = async () => (await dash.request('get', '/api/printers', { token })).json.items as any[];

test('a Bambu Lab printer found on the network: "Use" fills the form, the access code is asked for, the printer is added', async () => {
  const { page, problems } = await openSignedIn(browser, dash.url, ADMIN, '/printers/new');
  await page.getByRole('button', { name: 'Find printers' }).click();
  // The announcements come every 200 ms; a search right at the start may be ahead of the first.
  const found = page.locator(`[data-found="${bambu.serial}"]`);
  for (let i = 0; i < 20 && (await found.count()) === 0; i++) {
    await page.getByRole('button', { name: /Look again|Find printers/ }).click();
    await page.getByRole('button', { name: /Look again|Find printers/ }).waitFor({ timeout: WAIT_MS });
    await page.waitForTimeout(250);
  }
  await found.waitFor({ timeout: WAIT_MS });
  assert.match((await found.textContent()) ?? '', /Farm P1S\s*P1S.*127\.0\.0\.1/);
  // The searches above probe the virtual Marlin's pty each time; one may have caught it while socat
  // reopened it after the previous probe: look again until a search has found it.
  const port = page.locator(`[data-found="${marlin.hostPath}"]`);
  for (let i = 0; i < 10 && !/Marlin: /.test((await port.textContent()) ?? ''); i++) {
    await page.getByRole('button', { name: /Look again|Find printers/ }).click();
    await page.getByRole('button', { name: /Look again|Find printers/ }).waitFor({ timeout: WAIT_MS });
  }
  assert.match((await port.textContent()) ?? '', /Arduino.*Marlin: .*Marlin /);
  await checkPage(page, 'printer-find');

  await page.getByRole('button', { name: 'Use Farm P1S' }).click();
  assert.equal(await page.locator('#printer-type').inputValue(), 'bambu-lan');
  assert.equal(await page.locator('#printer-name').inputValue(), 'Farm P1S');
  assert.equal(await page.locator('#printer-model').inputValue(), 'P1S');
  assert.equal(await page.locator('#conn-host').inputValue(), '127.0.0.1');
  assert.equal(await page.locator('#conn-serial').inputValue(), bambu.serial);
  assert.equal(await page.locator('#conn-access_code').inputValue(), '');
  await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'conn-access_code');
  assert.match((await page.locator('.notice').textContent()) ?? '', /Enter its access code/);

  await page.locator('#conn-access_code').fill(bambu.accessCode);
  // This simulator's ports (a real printer has the standard ones, the fields' defaults).
  await page.locator('#conn-mqtt_port').fill(String(bambu.mqttPort));
  await page.locator('#conn-ftps_port').fill(String(bambu.ftpsPort));
  await page.getByRole('button', { name: 'Add printer' }).click();
  await waitForPath(page, /^\/printers\/(?!new$)[^/]+$/);
  const printer = (await printers()).find((p) => p.connection.serial === bambu.serial);
  assert.ok(printer, 'the printer found was added');
  assert.equal(new URL(page.url()).pathname, `/printers/${printer.id}`);
  assert.deepEqual([printer.name, printer.type, printer.model], ['Farm P1S', 'bambu-lan', 'P1S']);

  // Found again, it is one of ours now.
  await page.goto(`${dash.url}/printers/new`);
  await page.getByRole('button', { name: 'Find printers' }).click();
  await found.waitFor({ timeout: WAIT_MS });
  assert.match((await found.textContent()) ?? '', /added already/);
  assert.equal(await found.getByRole('button', { name: /Use/ }).count(), 0);
  assert.deepEqual(problems, []);
});

test('a Marlin printer on a USB port: "Use" fills the type, name and port; the printer is added', async () => {
  const { page, problems } = await openSignedIn(browser, dash.url, ADMIN, '/printers/new');
  await page.getByRole('button', { name: 'Find printers' }).click();
  const port = page.locator(`[data-found="${marlin.hostPath}"]`);
  await port.waitFor({ timeout: WAIT_MS });
  await port.getByRole('button', { name: `Use ${marlin.hostPath}` }).click();
  assert.equal(await page.locator('#printer-type').inputValue(), 'marlin-serial');
  assert.equal(await page.locator('#conn-port').inputValue(), marlin.hostPath);
  const name = await page.locator('#printer-name').inputValue();
  assert.notEqual(name, '');
  await page.getByRole('button', { name: 'Add printer' }).click();
  await waitForPath(page, /^\/printers\/(?!new$)[^/]+$/);
  const printer = (await printers()).find((p) => p.connection.port === marlin.hostPath);
  assert.ok(printer, 'the Marlin printer found was added');
  assert.deepEqual([printer.type, printer.name], ['marlin-serial', name]);
  assert.deepEqual(problems, []);
});
