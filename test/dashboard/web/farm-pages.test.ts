/**
 * The queue, spools and history pages in Chromium against a real dashboard (auth, printers,
 * inventory and its tools, history, queue, live, web) and a virtual Marlin printer: the queue
 * reorders by drag and by keyboard, "Plate cleared" dispatches the next job and the page follows
 * live; a spool is created, its QR code loads (256×256) and it is assigned to a tool; the history
 * filters, opens a record, exports the filtered CSV and shows its charts; a view user sees no write
 * controls; axe and screenshots of each page at both widths.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  authFeature,
  historyFeature,
  inventoryFeature,
  inventoryToolsFeature,
  liveFeature,
  printersFeature,
  queueFeature,
  webFeature,
} from '../../../appliance/dashboard/features.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { gcodeFile, postJob } from '../queue/queue-dashboard.js';
import { checkPage, launchChromium, openSignedIn } from './browser.js';

const ADMIN = { username: 'farmer', password: 'Spool-Yard-4711' };
const VIEWER = { username: 'onlooker', password: 'Glass-Bed-0815' };
const WAIT_MS = 20_000;

let dash: DashboardFixture;
let browser: Browser;
let marlin: VirtualMarlinFixture;
let admin = '';
let printerId = '';

const call = (method: string, path: string, body?: unknown, token = admin) =>
  dash.request(method, path, { token, ...(body === undefined ? {} : { body }) });
const queueOrder = async () => ((await call('get', '/api/queue')).json.items as Array<{ name: string }>).map((j) => j.name);

before(async () => {
  [marlin, browser] = await Promise.all([startVirtualMarlin({ speed: 100 }), launchChromium()]);
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    features: [authFeature, printersFeature, inventoryFeature, inventoryToolsFeature, historyFeature, liveFeature, queueFeature, webFeature],
    services: { printers: { drivers } },
    config: { queue: { retry_delay_ms: 200, round_interval_s: 1 }, rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
  const setup = await dash.request('post', '/api/auth/setup', { body: ADMIN });
  assert.ok(setup.status === 200 || setup.status === 201, setup.text);
  admin = (await dash.request('post', '/api/auth/login', { body: ADMIN })).json.token;
  assert.equal((await call('post', '/api/users', { ...VIEWER, role: 'view' })).status, 201);
  const printer = await call('post', '/api/printers', {
    name: 'Mk3',
    type: 'marlin-serial',
    printer_profile: 'generic-marlin-0.4',
    connection: { port: marlin.hostPath },
  });
  assert.equal(printer.status, 201, printer.text);
  printerId = printer.json.id;
  const spool = await call('post', '/api/filaments', { material: 'PLA', color_hex: '#FFFFFF', vendor: 'Farmfil', initial_weight_g: 1000, price: 20 });
  assert.equal((await call('put', `/api/filaments/${spool.json.id}`, { printer_id: printerId, slot: { kind: 'tool', tool: 0 } })).status, 200);
  const shelf = await call('post', '/api/inventory/locations', { name: 'Dry box' });
  assert.equal(shelf.status, 201, shelf.text);
  for (const [minutesAgo, humidity] of [
    [30, 35],
    [20, 38],
    [10, 41],
  ]) {
    const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const reading = await call('post', `/api/inventory/locations/${shelf.json.id}/climate`, { temperature_c: 22.5, humidity_pct: humidity, at });
    assert.equal(reading.status, 201, reading.text);
  }
  await eventually('the printer online', async () => (await call('get', `/api/printers/${printerId}`)).json?.status?.online === true, WAIT_MS);
});

after(async () => {
  await browser?.close();
  await dash?.cleanup();
  await marlin?.stop();
});

let adminPage: Page;
let problems: string[];

test('queue: jobs in order, reorder by keyboard and by drag, "Plate cleared" dispatches and the page follows live', async () => {
  for (const name of ['Alpha', 'Bravo', 'Charlie']) {
    const posted = await postJob(dash, `${name.toLowerCase()}.gcode`, gcodeFile([['PLA', '#FFFFFF', 2]], { minutes: 1 }), { name }, admin);
    assert.equal(posted.status, 201, posted.text);
  }
  ({ page: adminPage, problems } = await openSignedIn(browser, dash.url, ADMIN, '/queue'));
  const page = adminPage;
  await page.locator('.job').nth(2).waitFor({ timeout: WAIT_MS });
  assert.deepEqual(await page.locator('.job h3').allTextContents(), ['Alpha', 'Bravo', 'Charlie']);
  assert.match((await page.locator('.job').first().textContent()) ?? '', /plate not cleared on Mk3/);

  await page.getByRole('button', { name: 'Move Alpha down' }).focus();
  await page.keyboard.press('Enter');
  await eventually('Alpha moved down', async () => (await queueOrder()).join() === 'Bravo,Alpha,Charlie');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('.job h3')?.textContent === 'Bravo');

  await page.locator('[data-job] h3', { hasText: 'Charlie' }).dragTo(page.locator('[data-job] h3', { hasText: 'Bravo' }));
  await eventually('Charlie dragged to the top', async () => (await queueOrder()).join() === 'Charlie,Bravo,Alpha');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('.job h3')?.textContent === 'Charlie');
  await checkPage(page, 'queue');

  await page.getByRole('button', { name: 'Plate cleared: Mk3' }).click();
  // The first job goes to the printer; the page shows it without a reload.
  await page
    .locator('.job[data-state="printing"] h3', { hasText: 'Charlie' })
    .or(page.locator('.job[data-state="done"] h3', { hasText: 'Charlie' }))
    .waitFor({
      timeout: WAIT_MS,
    });
  await eventually(
    'Charlie printed',
    async () => (await call('get', '/api/queue')).json.items.find((j: any) => j.name === 'Charlie')?.state === 'done',
    60_000,
  );
  await page.locator('.job[data-state="done"] h3', { hasText: 'Charlie' }).waitFor({ timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Plate cleared: Mk3' }).waitFor({ timeout: WAIT_MS });
  assert.deepEqual(problems, []);
});

test('queue: a print user pauses the whole queue with a reason, the banner follows pauses made elsewhere, Resume ends them', async () => {
  const page = adminPage;
  const pauseReasons = async () => ((await call('get', '/api/queue')).json.pause.reasons as Array<{ reason: string }>).map((r) => r.reason);
  await page.getByLabel('Reason for pausing').fill('nozzle change');
  await page.getByRole('button', { name: 'Pause the queue' }).click();
  await eventually('the queue paused', async () => (await pauseReasons()).join() === 'nozzle change');
  const banner = page.locator('.pause-banner');
  await banner.waitFor({ timeout: WAIT_MS });
  assert.match((await banner.textContent()) ?? '', /nozzle change \(by farmer, since /);
  await page.locator('.job', { hasText: 'queue paused: nozzle change' }).first().waitFor({ timeout: WAIT_MS });

  // A pause made elsewhere (Node-RED's dispatch window) arrives over the live feed.
  assert.equal((await call('post', '/api/queue/pause', { reason: 'dispatch-window' })).status, 200);
  await page.locator('[data-pause-reason="dispatch-window"]').waitFor({ timeout: WAIT_MS });
  await checkPage(page, 'queue-paused');
  await page.getByRole('button', { name: 'Resume: nozzle change' }).click();
  await eventually('one reason left', async () => (await pauseReasons()).join() === 'dispatch-window');
  await page.locator('[data-pause-reason="nozzle change"]').waitFor({ state: 'detached', timeout: WAIT_MS });

  await page.getByRole('button', { name: 'Resume the queue' }).click();
  await eventually('the queue running', async () => (await pauseReasons()).length === 0);
  await banner.waitFor({ state: 'detached', timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Pause the queue' }).waitFor({ timeout: WAIT_MS });
  assert.deepEqual(problems, []);
});

test('spools: create one, its QR code loads at 256×256, assign it to a tool; locations show their climate chart', async () => {
  const page = adminPage;
  await page.getByRole('link', { name: 'Spools' }).click();
  await page.getByRole('button', { name: 'Add a spool' }).click();
  await page.locator('#s-material').fill('PETG');
  await page.getByLabel('Vendor').fill('Shelfmade');
  await page.getByLabel('Filament weight when full (g)').fill('750');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText(/Spool \w+ saved\./).waitFor();
  const created = ((await call('get', '/api/filaments?material=PETG')).json.items as any[])[0];
  assert.equal(created.vendor, 'Shelfmade');
  const card = page.locator(`[data-spool="${created.id}"]`);
  const qr = card.getByRole('img', { name: `QR code of spool ${created.short_id}` });
  await qr.waitFor();
  await eventually('the QR code decoded', () => qr.evaluate((img: any) => img.complete && img.naturalWidth > 0));
  assert.deepEqual(await qr.evaluate((img: any) => [img.naturalWidth, img.naturalHeight]), [256, 256]);
  const [label] = await Promise.all([page.context().waitForEvent('page'), card.getByRole('button', { name: 'Print label' }).click()]);
  await label.waitForURL(/\/api\/inventory\/labels\//);
  await label.locator('.short-id').waitFor();
  assert.notEqual(await label.evaluate(`getComputedStyle(document.body).display`), 'block', "the label's own style applies");
  await label.close();

  await card.getByRole('button', { name: `Assign spool ${created.short_id} to a printer` }).click();
  await page.getByLabel('Tool number (T0 = 0)').fill('1');
  await page.getByRole('button', { name: 'Assign', exact: true }).click();
  await eventually('the spool on T1', async () => {
    const spool = (await call('get', `/api/filaments?material=PETG`)).json.items[0];
    return spool.printer_id === printerId && spool.slot?.kind === 'tool' && spool.slot.tool === 1;
  });
  await card.getByText('In Mk3, tool T1').waitFor();
  await page.locator('[data-location] .chart canvas').first().waitFor();
  await checkPage(page, 'spools');
  assert.deepEqual(problems, []);
});

test('history: filter, open a record, export the filtered CSV, statistics charts', async () => {
  const page = adminPage;
  await page.getByRole('link', { name: 'History' }).click();
  await page.locator('[data-record]').first().waitFor({ timeout: WAIT_MS });
  await page.getByLabel('State').selectOption('finished');
  await page.getByLabel('File name contains').fill('charlie');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/\/history\?.*state=finished/);
  await page.getByRole('button', { name: /Details of charlie/ }).click();
  await page.getByRole('heading', { name: /charlie/ }).waitFor();
  assert.match((await page.locator('.detail').textContent()) ?? '', /Slicer estimate/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = readFileSync((await download.path()) as string, 'utf8').replace(/^\uFEFF/, '');
  const rows = csv.trim().split('\r\n');
  const header = rows[0].split(',');
  assert.ok(rows.length >= 2, csv);
  for (const row of rows.slice(1)) {
    const cells = row.split(',');
    assert.equal(cells[header.indexOf('state')], 'finished');
    assert.match(cells[header.indexOf('file')], /charlie/i);
  }
  const canvases = page.locator('.charts canvas');
  await canvases.first().waitFor();
  assert.equal(await canvases.count(), 3);
  await checkPage(page, 'history');
  assert.deepEqual(problems, []);
});

test('a view user sees the three pages without write controls; the server refuses them anyway', async () => {
  const { page, problems: viewProblems, token } = await openSignedIn(browser, dash.url, VIEWER, '/queue', { colorScheme: 'dark' });
  await page.locator('.job').first().waitFor({ timeout: WAIT_MS });
  assert.equal(await page.getByRole('button', { name: /Dispatch now|Plate cleared|Move|Hold|Delete|Add to queue|Pause|Resume/ }).count(), 0);
  await page.getByRole('link', { name: 'Spools' }).click();
  await page.locator('[data-spool]').first().waitFor();
  assert.equal(await page.getByRole('button', { name: /Add a spool|Edit|Assign|Delete/ }).count(), 0);
  assert.ok(await page.getByRole('button', { name: 'Print label' }).first().isVisible());
  await page.getByRole('link', { name: 'History' }).click();
  await page.locator('[data-record]').first().getByRole('button').click();
  await page.locator('.detail').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Delete record' }).count(), 0);
  await checkPage(page, 'history-view-dark');
  const refused = await call('post', `/api/printers/${printerId}/plate-cleared`, undefined, token);
  assert.equal(refused.status, 403);
  assert.deepEqual(viewProblems, []);
});
