/**
 * The web app in Chromium against a real dashboard (the real auth, printers and live features)
 * and the virtual printers: first-run setup, logout and login, a virtual Bambu Lab printer (with
 * an AMS) and a virtual Marlin printer added through the API, both cards showing temperatures that
 * change live; a view user sees no controls; a session that ends returns to login and back to the
 * page. Each page is screenshotted at desktop and phone widths (test-artifacts/web/) and checked
 * with axe-core.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { bambuLanDriverFactory } from '../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { authFeature, liveFeature, printersFeature, queueFeature, webFeature } from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { startVirtualBambu, type VirtualBambu } from '../../fixtures/virtual-bambu.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { axeViolations, checkPage, DESKTOP, launchChromium, PHONE, screenshot, waitForPath, watchProblems } from './browser.js';

const ADMIN = { username: 'owner', password: 'Spool-Yard-4711' };
const VIEWER = { username: 'watcher', password: 'Glass-Bed-0815' };
const WAIT_MS = 20_000;

let dash: DashboardFixture;
let browser: Browser;
let bambu: VirtualBambu;
let marlin: VirtualMarlinFixture;
let adminToken = '';
const ids = { bambu: '', marlin: '' };

before(async () => {
  [bambu, marlin, browser] = await Promise.all([
    startVirtualBambu({ ams: { units: 1, trays: [{ type: 'PLA', color: 'E02020FF' }, { type: 'PETG', color: '1060D0FF' }, null, null] } }),
    startVirtualMarlin({ speed: 50 }),
    launchChromium(),
  ]);
  const drivers = new DriverRegistry();
  drivers.register('bambu-lan', bambuLanDriverFactory({ startTimeoutMs: 30_000 }));
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    features: [authFeature, printersFeature, liveFeature, queueFeature, webFeature],
    services: { printers: { drivers } },
    logLevel: 'warn',
  });
});

after(async () => {
  await browser?.close();
  await dash?.cleanup();
  await Promise.all([bambu?.stop(), marlin?.stop()]);
});

async function logIn(page: Page, who: { username: string; password: string }): Promise<void> {
  await page.getByLabel('User name').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** The text of a card's heater readings, e.g. "Nozzle 25 °C Bed 24 °C". */
const temps = (page: Page, printerId: string) => page.locator(`[data-printer="${printerId}"] .temps`).textContent();

let adminPage: Page;
let problems: string[];

test('first run: the setup page creates the admin and logs in; logout and login come back', async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  adminPage = await context.newPage();
  problems = watchProblems(adminPage);
  await adminPage.goto(`${dash.url}/`);
  await waitForPath(adminPage, /^\/setup$/);
  await adminPage.getByRole('heading', { name: 'Set up your Printyard' }).waitFor();
  await checkPage(adminPage, 'setup');

  await adminPage.getByLabel('User name').fill(ADMIN.username);
  await adminPage.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await adminPage.getByLabel('Password again').fill('something else');
  await adminPage.getByRole('button', { name: 'Create administrator' }).click();
  await adminPage.getByText('The two passwords differ.').waitFor();
  await adminPage.getByLabel('Password again').fill(ADMIN.password);
  await adminPage.getByRole('button', { name: 'Create administrator' }).click();
  await adminPage.getByRole('heading', { name: 'Ready' }).waitFor();
  await checkPage(adminPage, 'setup-done');
  await adminPage.getByRole('link', { name: 'Go to the fleet' }).click();
  await adminPage.getByText('No printers yet').waitFor();

  await adminPage.getByRole('button', { name: 'Log out' }).click();
  await waitForPath(adminPage, /^\/login/);
  await adminPage.getByText('You have logged out.').waitFor();
  await checkPage(adminPage, 'login');
  await logIn(adminPage, { ...ADMIN, password: 'wrong-password-1' });
  await adminPage.getByRole('alert').waitFor();
  await logIn(adminPage, ADMIN);
  await adminPage.getByRole('heading', { name: 'Fleet' }).waitFor();
  assert.equal(new URL(adminPage.url()).pathname, '/');

  const setupAgain = await dash.request('get', '/api/auth/setup');
  assert.equal(setupAgain.json.needed, false);
  const login = await dash.request('post', '/api/auth/login', { body: ADMIN });
  assert.equal(login.status, 200, login.text);
  adminToken = login.json.token;
});

test('a Bambu Lab and a Marlin printer added through the API show live temperatures that change, and the AMS', async () => {
  const add = async (body: Record<string, unknown>) => {
    const created = await dash.request('post', '/api/printers', { token: adminToken, body });
    assert.equal(created.status, 201, created.text);
    return created.json.id as string;
  };
  ids.bambu = await add({
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
  });
  ids.marlin = await add({ name: 'Marlin MK3', type: 'marlin-serial', connection: { port: marlin.hostPath } });

  // The page learns of the new printers from their first live status.
  for (const id of [ids.bambu, ids.marlin]) {
    await adminPage.locator(`[data-printer="${id}"][data-state="idle"] .temps`).waitFor({ timeout: WAIT_MS });
  }
  const before = { bambu: await temps(adminPage, ids.bambu), marlin: await temps(adminPage, ids.marlin) };
  for (const id of [ids.bambu, ids.marlin]) {
    const heated = await dash.request('post', `/api/printers/${id}/actions/temperature`, { token: adminToken, body: { heater: 'bed', target: 60 } });
    assert.equal(heated.status, 204, heated.text);
  }
  for (const which of ['bambu', 'marlin'] as const) {
    await adminPage.waitForFunction(
      ([id, text]) => {
        const now = (globalThis as any).document.querySelector(`[data-printer="${id}"] .temps`)?.textContent ?? '';
        return now !== text && now.includes('/ 60');
      },
      [ids[which], before[which]] as const,
      { timeout: WAIT_MS },
    );
  }
  // A heating bed keeps changing: two readings a moment apart differ.
  const first = await temps(adminPage, ids.marlin);
  await adminPage.waitForFunction(
    ([id, text]) => (globalThis as any).document.querySelector(`[data-printer="${id}"] .temps`)?.textContent !== text,
    [ids.marlin, first] as const,
    {
      timeout: WAIT_MS,
    },
  );

  const trays = adminPage.locator(`[data-printer="${ids.bambu}"] .tray`);
  await trays.first().waitFor({ timeout: WAIT_MS });
  // Four AMS trays (two empty), then the external spool.
  assert.deepEqual(await trays.locator('.material').allTextContents(), ['PLA', 'PETG', '–', '–', 'PLA']);
  assert.equal(await trays.first().getAttribute('title'), 'Tray 1: PLA, colour #E02020');

  const summary = adminPage.getByRole('navigation', { name: /Printers by state/ });
  assert.match((await summary.getByRole('button', { name: /Idle/ }).textContent()) ?? '', /2/);
  await summary.getByRole('button', { name: /Offline/ }).click();
  await adminPage.getByText('No printer is in this state.').waitFor();
  assert.match(adminPage.url(), /\?state=offline$/);
  await summary.getByRole('button', { name: /All/ }).click();
  await adminPage.locator('.card').nth(1).waitFor();

  assert.ok(await adminPage.getByRole('button', { name: 'Plate cleared: Marlin MK3' }).isVisible(), 'an admin sees the controls');
  await checkPage(adminPage, 'fleet');
  assert.deepEqual(problems, []);
});

test('a view user sees the fleet without controls, and the server still refuses them', async () => {
  const created = await dash.request('post', '/api/users', { token: adminToken, body: { ...VIEWER, role: 'view' } });
  assert.equal(created.status, 201, created.text);
  // This person's phone is set to dark: the page follows it.
  const context = await browser.newContext({ viewport: PHONE, colorScheme: 'dark' });
  const page = await context.newPage();
  const viewProblems = watchProblems(page);
  await page.goto(`${dash.url}/?state=idle`);
  await waitForPath(page, /^\/login\?next=/);
  await logIn(page, VIEWER);
  await waitForPath(page, /^\/\?state=idle$/);
  await page.locator(`[data-printer="${ids.marlin}"] .temps`).waitFor({ timeout: WAIT_MS });
  await page.getByText('watcher (view)').waitFor({ state: 'attached' });
  assert.equal(await page.locator('.controls button').count(), 0);
  assert.equal(await page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.body).colorScheme), 'dark');
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'fleet-view-role-dark-390x844');
  await context.close();

  const viewLogin = await dash.request('post', '/api/auth/login', { body: VIEWER });
  const refused = await dash.request('post', `/api/printers/${ids.marlin}/plate-cleared`, { token: viewLogin.json.token });
  assert.equal(refused.status, 403);
  assert.deepEqual(viewProblems, []);
});

test('an ended session returns to login and then to the page the person was on', async () => {
  const token = await adminPage.evaluate(() => JSON.parse((globalThis as any).localStorage.getItem('printyard.session') ?? '{}').token as string);
  // Revoked elsewhere (e.g. logged out on another device): the next call gets a 401.
  const revoked = await dash.request('post', '/api/auth/logout', { token });
  assert.equal(revoked.status, 204);
  await adminPage.goto(`${dash.url}/?state=idle`);
  await waitForPath(adminPage, /^\/login\?next=%2F%3Fstate%3Didle$/);
  await adminPage.getByText('Your session has ended').waitFor();
  await logIn(adminPage, ADMIN);
  await waitForPath(adminPage, /^\/\?state=idle$/);
  await adminPage.locator(`[data-printer="${ids.bambu}"]`).waitFor({ timeout: WAIT_MS });
});
