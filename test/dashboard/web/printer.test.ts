/**
 * The printer page and the printer form in Chromium against a real dashboard (auth, printers,
 * live, queue, history, web) and the virtual printers: the admin adds a Marlin printer through the
 * form; its page's chart gets points that change; a console command shows the printer's reply;
 * home, jog and a bed target reach the virtual Marlin; the Bambu printer's AMS trays show; editing
 * keeps the access code when its field is left empty and never shows it; delete asks first; a view
 * user sees no controls and no form, and the server refuses them. axe and screenshots at both widths.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { bambuLanDriverFactory } from '../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import {
  authFeature,
  historyFeature,
  inventoryFeature,
  liveFeature,
  printersFeature,
  queueFeature,
  webFeature,
} from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { solidPng } from '../../fixtures/solid-png.js';
import { postJob } from '../queue/queue-dashboard.js';
import { checkPage, launchChromium, openSignedIn, screenshot, waitForPath } from './browser.js';

const ADMIN = { username: 'owner', password: 'Spool-Yard-4711' };
const VIEWER = { username: 'watcher', password: 'Glass-Bed-0815' };
const WAIT_MS = 20_000;

let dash: DashboardFixture;
let browser: Browser;
let bambu: VirtualBambu;
let marlin: VirtualMarlinFixture;
let adminToken = '';
let admin: Page;
let adminProblems: string[];
const ids = { bambu: '', marlin: '' };
/** Everything the virtual Marlin received, in order. */
let marlinReceived = '';

before(async () => {
  [bambu, marlin, browser] = await Promise.all([
    startVirtualBambu({ ams: { units: 1, trays: [{ type: 'PLA', color: 'E02020FF' }, { type: 'PETG', color: '1060D0FF' }, null, null] } }),
    startVirtualMarlin({ speed: 50 }),
    launchChromium(),
  ]);
  marlin.printer.on('received', (text) => {
    marlinReceived += text;
  });
  const drivers = new DriverRegistry();
  drivers.register('bambu-lan', bambuLanDriverFactory({ startTimeoutMs: 30_000 }));
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    // The queue's dispatch rounds read the spools loaded on each printer from the inventory.
    features: [authFeature, printersFeature, liveFeature, inventoryFeature, queueFeature, historyFeature, webFeature],
    services: { printers: { drivers } },
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
  const setup = await dash.request('post', '/api/auth/setup', { body: ADMIN });
  assert.ok(setup.status < 300, setup.text);
  adminToken = (await dash.request('post', '/api/auth/login', { body: ADMIN })).json.token;
  const viewer = await dash.request('post', '/api/users', { token: adminToken, body: { ...VIEWER, role: 'view' } });
  assert.equal(viewer.status, 201, viewer.text);
  const created = await dash.request('post', '/api/printers', {
    token: adminToken,
    body: {
      name: 'Bambu P1S',
      type: 'bambu-lan',
      connection: {
        host: bambu.host,
        serial: bambu.serial,
        access_code: bambu.accessCode,
        ca: bambu.caPem,
        mqtt_port: bambu.mqttPort,
        ftps_port: bambu.ftpsPort,
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  ids.bambu = created.json.id;
  ({ page: admin, problems: adminProblems } = await openSignedIn(browser, dash.url, ADMIN, '/'));
});

after(async () => {
  await browser?.close();
  await dash?.cleanup();
  await Promise.all([bambu?.stop(), marlin?.stop()]);
});

/** Waits until the virtual Marlin has received a line matching `pattern` after `from` characters. */
async function marlinGot(pattern: RegExp, from: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!pattern.test(marlinReceived.slice(from))) {
    if (Date.now() > deadline) throw new Error(`the virtual Marlin never received ${pattern}; it got:\n${marlinReceived.slice(from).slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('the admin adds a Marlin printer through the form; it opens its page and appears on the fleet', async () => {
  await admin.getByRole('link', { name: 'Add printer' }).click();
  await waitForPath(admin, /^\/printers\/new$/);
  await admin.getByRole('heading', { name: 'Add a printer' }).waitFor();
  await admin.getByLabel('Type').selectOption('marlin-serial');
  await admin.getByLabel('Serial port').waitFor();
  assert.equal(await admin.getByLabel('Baud rate').inputValue(), '115200', 'the default from the type schema');
  await checkPage(admin, 'printer-form-add');

  await admin.getByLabel('Name', { exact: true }).fill('Marlin MK3');
  await admin.getByLabel('Serial port').fill('ttyUSB0');
  await admin.getByRole('button', { name: 'Add printer' }).click();
  await admin.locator('#conn-port-error').waitFor();
  assert.equal(await admin.getByLabel('Serial port').getAttribute('aria-invalid'), 'true', 'the refusal lands on its field');

  await admin.getByLabel('Serial port').fill(marlin.hostPath);
  await admin.getByRole('button', { name: 'Add printer' }).click();
  await waitForPath(admin, /^\/printers\/[0-9a-f]{16}$/);
  ids.marlin = new URL(admin.url()).pathname.split('/')[2];
  await admin.getByRole('heading', { name: 'Marlin MK3' }).waitFor();
  const stored = await dash.request('get', `/api/printers/${ids.marlin}`, { token: adminToken });
  assert.deepEqual(stored.json.connection, { port: marlin.hostPath, baud: 115200 });

  await admin.getByRole('link', { name: 'Fleet' }).click();
  await admin.locator(`[data-printer="${ids.marlin}"]`).getByRole('link', { name: 'Marlin MK3' }).waitFor();
});

test("the Marlin printer's page: the chart gets points that change, a bed target, the console's reply, home and jog", async () => {
  await admin.locator(`[data-printer="${ids.marlin}"]`).getByRole('link', { name: 'Marlin MK3' }).click();
  await admin.locator(`.printer-page[data-printer="${ids.marlin}"][data-state="idle"]`).waitFor({ timeout: WAIT_MS });
  const chart = admin.locator('.temp-chart');
  await chart.locator('canvas').waitFor();
  const points = async () => Number(await chart.getAttribute('data-points'));
  const firstPoints = await points();
  const firstLabel = await chart.getAttribute('aria-label');

  const sent = marlinReceived.length;
  await admin.getByLabel('Bed target (°C)').fill('60');
  await admin.getByLabel('Bed target (°C)').press('Enter');
  await marlinGot(/M140 S60/, sent);
  await admin.locator('.overview [data-heater="bed"] dd', { hasText: '/ 60' }).waitFor({ timeout: WAIT_MS });
  await admin.waitForFunction(
    ([before, label]) => {
      const element = (globalThis as any).document.querySelector('.temp-chart');
      return (
        Number(element.dataset.points) > before && element.getAttribute('aria-label') !== label && element.getAttribute('aria-label').includes('/ 60')
      );
    },
    [firstPoints, firstLabel] as const,
    { timeout: WAIT_MS },
  );
  assert.ok((await points()) > firstPoints);

  await admin.getByLabel('G-code command').fill('M115');
  await admin.getByRole('button', { name: 'Send' }).click();
  await admin.locator('.console-log .console-reply', { hasText: 'FIRMWARE_NAME' }).first().waitFor({ timeout: WAIT_MS });
  assert.match((await admin.locator('.console-log .console-sent').first().textContent()) ?? '', /> M115/);

  const beforeHome = marlinReceived.length;
  await admin.getByRole('button', { name: 'Home all' }).click();
  await marlinGot(/G28/, beforeHome);
  const beforeJog = marlinReceived.length;
  await admin.getByLabel('1 mm', { exact: true }).check();
  await admin.getByRole('button', { name: 'Y +1', exact: true }).click();
  await marlinGot(/G91[\s\S]*G1 Y1(\.0+)? /, beforeJog);
  await checkPage(admin, 'printer-marlin');
});

test("the Bambu printer's page shows its AMS trays with material, colour and the external spool", async () => {
  await admin.goto(`${dash.url}/printers/${ids.bambu}`);
  await admin.locator(`.printer-page[data-printer="${ids.bambu}"][data-state="idle"]`).waitFor({ timeout: WAIT_MS });
  const ams = admin.locator('.ams-table').first();
  await ams.locator('[data-tray="Tray 1"]', { hasText: 'PLA' }).waitFor({ timeout: WAIT_MS });
  assert.match((await ams.locator('[data-tray="Tray 1"]').textContent()) ?? '', /PLA.*#E02020/);
  assert.match((await ams.locator('[data-tray="Tray 2"]').textContent()) ?? '', /PETG.*#1060D0/);
  assert.match((await ams.locator('[data-tray="Tray 3"]').textContent()) ?? '', /Empty/);
  await admin.getByLabel('Load from').waitFor();
  await checkPage(admin, 'printer-bambu');
});

test('editing keeps the access code when its field is left empty and never shows it', async () => {
  await admin.getByRole('link', { name: 'Edit' }).click();
  await waitForPath(admin, new RegExp(`^/printers/${ids.bambu}/edit$`));
  const code = admin.getByLabel(/Access code/);
  await code.waitFor();
  assert.equal(await code.inputValue(), '', 'the secret field starts empty');
  await admin.locator('[data-secret="set"]').waitFor();
  assert.ok(!(await admin.content()).includes(bambu.accessCode), 'the access code is nowhere in the page');
  await checkPage(admin, 'printer-form-edit');

  // A changed model restarts the driver: it connects again only with the stored access code.
  await admin.getByLabel('Name', { exact: true }).fill('Bambu P1S left');
  await admin.getByLabel('Model').fill('P1S');
  await admin.getByRole('button', { name: 'Save' }).click();
  await waitForPath(admin, new RegExp(`^/printers/${ids.bambu}$`));
  await admin.getByRole('heading', { name: 'Bambu P1S left' }).waitFor();
  const stored = await dash.request('get', `/api/printers/${ids.bambu}`, { token: adminToken });
  assert.equal(stored.json.model, 'P1S');
  assert.equal(stored.json.connection.access_code_set, true);
  assert.ok(!stored.text.includes(bambu.accessCode));
  await admin.locator(`.printer-page[data-printer="${ids.bambu}"][data-state="idle"]`).waitFor({ timeout: WAIT_MS });
});

test('a view user (in dark mode) sees no controls, no Edit, no Add printer and no form; the server refuses them anyway', async () => {
  const { page, problems } = await openSignedIn(browser, dash.url, VIEWER, `/printers/${ids.marlin}`, { colorScheme: 'dark' });
  await page.locator(`.printer-page[data-printer="${ids.marlin}"]`).waitFor({ timeout: WAIT_MS });
  await page.getByRole('heading', { name: 'Last prints' }).waitFor();
  for (const name of ['Home all', 'Send', 'Set', 'Plate cleared', 'Pause']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
  assert.equal(await page.getByRole('link', { name: 'Edit' }).count(), 0);
  assert.equal(await page.getByLabel('G-code command').count(), 0);
  await checkPage(page, 'printer-view-role-dark');

  await page.goto(`${dash.url}/printers/new`);
  await page.getByText('Only an administrator').waitFor();
  assert.equal(await page.getByLabel('Serial port').count(), 0);
  await page.goto(`${dash.url}/`);
  await page.getByRole('heading', { name: 'Fleet' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Add printer' }).count(), 0);

  const viewToken = (await dash.request('post', '/api/auth/login', { body: VIEWER })).json.token;
  const home = await dash.request('post', `/api/printers/${ids.marlin}/actions/home`, { token: viewToken, body: {} });
  assert.equal(home.status, 403, home.text);
  const command = await dash.request('post', `/api/printers/${ids.marlin}/command`, { token: viewToken, body: { command: 'M115' } });
  assert.equal(command.status, 403, command.text);
  const edit = await dash.request('put', `/api/printers/${ids.bambu}`, { token: viewToken, body: { name: 'taken over' } });
  assert.equal(edit.status, 403, edit.text);
  assert.deepEqual(problems, []);
  await page.context().close();
});

/** Print-ready G-code with a 16×16 plate picture and no filament named, long enough to watch. */
function gcodeWithPicture(): string {
  const picture = Buffer.from(solidPng(16, 16, [20, 160, 60, 255])).toString('base64');
  const lines = [`; thumbnail begin 16x16 ${picture.length}`, ...picture.match(/.{1,78}/g)!.map((l) => `; ${l}`), '; thumbnail end', 'G28', 'G90'];
  for (let i = 0; i < 400; i++) lines.push(`G1 X${(i % 2) * 100} Y${i % 100} F600`);
  return `${lines.join('\n')}\n`;
}

test("Plate cleared on the fleet card starts the queued job; the card shows the job's picture and the plate", async () => {
  const queued = await postJob(dash, 'picture.gcode', gcodeWithPicture(), { requirements: { printer_ids: [ids.marlin] } }, adminToken);
  assert.equal(queued.status, 201, queued.text);
  await admin.goto(`${dash.url}/`);
  const card = admin.locator(`[data-printer="${ids.marlin}"]`);
  await card.locator('[data-plate="unknown"]').waitFor({ timeout: WAIT_MS });
  await card.getByRole('button', { name: 'Plate cleared' }).click();
  await card
    .locator('.job-file', { hasText: 'picture.gcode' })
    .waitFor({ timeout: WAIT_MS })
    .catch(async (err: Error) => {
      const queue = await dash.request('get', '/api/queue', { token: adminToken });
      const plates = await dash.request('get', '/api/queue/plates', { token: adminToken });
      throw new Error(`${err.message}\nthe card: ${await card.textContent()}\nthe queue: ${queue.text}\nplates: ${plates.text}`);
    });
  const picture = card.locator('img.card-thumb');
  await picture.waitFor({ timeout: WAIT_MS });
  assert.equal(await picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), 16, 'the PNG of the running print');
  assert.match((await picture.getAttribute('src')) ?? '', /^blob:/);
  await card.locator('[data-plate="occupied"]').waitFor({ timeout: WAIT_MS });
  await screenshot(admin, 'fleet-printing-with-picture-1280x800');

  await card.getByRole('button', { name: 'Pause' }).click();
  await admin.locator(`[data-printer="${ids.marlin}"][data-state="paused"]`).waitFor({ timeout: WAIT_MS });
  admin.once('dialog', (dialog) => void dialog.accept());
  await card.getByRole('button', { name: 'Stop' }).click();
  await admin.locator(`[data-printer="${ids.marlin}"][data-state="idle"]`).waitFor({ timeout: WAIT_MS });
  await picture.waitFor({ state: 'detached', timeout: WAIT_MS });
});

test('delete asks first: dismissed it keeps the printer, accepted it removes it', async () => {
  await admin.goto(`${dash.url}/printers/${ids.marlin}/edit`);
  await admin.getByRole('button', { name: 'Delete printer' }).waitFor();
  admin.once('dialog', (dialog) => void dialog.dismiss());
  await admin.getByRole('button', { name: 'Delete printer' }).click();
  assert.equal((await dash.request('get', `/api/printers/${ids.marlin}`, { token: adminToken })).status, 200);
  admin.once('dialog', (dialog) => {
    assert.match(dialog.message(), /Delete the printer Marlin MK3\?/);
    void dialog.accept();
  });
  await admin.getByRole('button', { name: 'Delete printer' }).click();
  await waitForPath(admin, /^\/$/);
  assert.equal((await dash.request('get', `/api/printers/${ids.marlin}`, { token: adminToken })).status, 404);
  assert.equal(await admin.locator(`[data-printer="${ids.marlin}"]`).count(), 0);
  assert.deepEqual(adminProblems, []);
});
