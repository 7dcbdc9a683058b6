/**
 * The settings page, the notification bell, its toasts and list, and the slicer indicator, in
 * Chromium against a real dashboard and a real slicer service: an admin names the box, changes
 * the slicer's address (the indicator follows live: connected, lost when the service stops, found
 * again), adds a user, creates an API key that is shown once, adds a webhook and tests it against
 * a receiver of the test's own, changes another setting; new notifications ring the bell and show
 * as toasts; the list marks them read. A view user sees only the system part and the server
 * refuses them the rest.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  authFeature,
  bridgeFeature,
  liveFeature,
  nativeSlicingFeature,
  notificationsFeature,
  printersFeature,
  settingsFeature,
  slicerServiceFeature,
  webFeature,
} from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { startSlicer, type SlicerProcess } from '../../fixtures/slicer-service.js';
import { checkPage, launchChromium, openSignedIn, waitForPath } from './browser.js';

const ADMIN = { username: 'owner', password: 'Spool-Yard-4711' };
const VIEWER = { username: 'watcher', password: 'Glass-Bed-0815' };

let dash: DashboardFixture;
let browser: Browser;
let slicer: SlicerProcess;
let receiver: http.Server;
const received: { path: string; body: string }[] = [];
let page: Page;
let problems: string[];

before(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  [slicer, browser] = await Promise.all([startSlicer(), launchChromium()]);
  dash = await startDashboardFixture({
    features: [
      authFeature,
      settingsFeature,
      notificationsFeature,
      printersFeature,
      liveFeature,
      nativeSlicingFeature,
      bridgeFeature,
      slicerServiceFeature,
      webFeature,
    ],
    // An address where nothing listens: the admin gives the service's real one on the page.
    config: { slicer_service: { enabled: true, url: 'http://127.0.0.1:9', token: '' } },
    services: { bridge: { searchDirs: [] } },
    logLevel: 'warn',
  });
  assert.equal((await dash.request('post', '/api/auth/setup', { body: ADMIN })).status, 201);
  ({ page, problems } = await openSignedIn(browser, dash.url, ADMIN, '/settings'));
});

after(async () => {
  await browser?.close();
  await dash?.cleanup();
  await slicer?.cleanup();
  await new Promise((resolve) => receiver?.close(resolve));
});

const pill = () => page.locator('header .pill');

test('the box gets a name: the header and the tab show it', async () => {
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  const field = page.getByLabel('Name of this box');
  await field.fill('Werkstatt Süd');
  await page.locator('#box').getByRole('button', { name: 'Save' }).click();
  await page.locator('#box').getByText('Saved.').waitFor();
  await page.locator('header .brand', { hasText: 'Werkstatt Süd' }).waitFor();
  assert.equal(await page.title(), 'Werkstatt Süd · Printyard');
  await field.fill('A name far longer than the forty characters allowed');
  await page.locator('#box').getByRole('button', { name: 'Save' }).click();
  await page.locator('#box .error-text', { hasText: '1 to 40 characters' }).waitFor();
  assert.equal((await dash.request('get', '/api/system/info', { token: await adminToken() })).json.box.name, 'Werkstatt Süd');
});

test('the slicer indicator: disconnected at a dead address, connected once the admin gives the real one, lost again live', async () => {
  await pill().filter({ hasText: 'Slicer disconnected' }).waitFor();
  await page.locator('#slicer').getByLabel('Address').fill(slicer.url);
  await page.locator('#slicer').getByRole('button', { name: 'Save' }).click();
  await pill().filter({ hasText: 'Slicer connected' }).waitFor({ timeout: 15_000 });
  await page.locator('#slicer').getByText('Slicer connected').waitFor();
  await page.locator('header .pill-link').click();
  await waitForPath(page, /^\/settings\?section=slicer$/);
  await checkPage(page, 'settings');

  await slicer.stop();
  await page.locator('#slicer').getByRole('button', { name: 'Check now' }).click();
  await pill().filter({ hasText: 'Slicer disconnected' }).waitFor({ timeout: 15_000 });
  // The transition is a notification: the bell counts it and a toast shows it.
  await page.locator('.toast', { hasText: 'Slicer service disconnected' }).waitFor();
  assert.match((await page.locator('header .bell').getAttribute('aria-label')) ?? '', /[1-9]\d* unread/);
});

test('users, API keys and webhooks: added, a key shown only once, a webhook tested', async () => {
  const users = page.locator('#users');
  await users.getByLabel('User name').fill(VIEWER.username);
  await users.getByLabel('Password', { exact: true }).fill(VIEWER.password);
  await users.getByLabel('Role', { exact: true }).selectOption('view');
  await users.getByRole('button', { name: 'Add user' }).click();
  await users.getByRole('rowheader', { name: VIEWER.username }).waitFor();
  await users.getByLabel('User name').fill('x');
  await users.getByLabel('Password', { exact: true }).fill('short');
  await users.getByRole('button', { name: 'Add user' }).click();
  await users.locator('.error-text').first().waitFor();

  const keys = page.locator('#api-keys');
  await keys.getByLabel('Name').fill('node-red');
  await keys.getByRole('button', { name: 'Create key' }).click();
  const shown = (await keys.getByTestId('new-api-key').textContent()) ?? '';
  assert.ok(shown.length >= 20, `a key is shown: ${shown}`);
  const withKey = await fetch(`${dash.url}/api/printers`, { headers: { 'x-api-key': shown } });
  assert.equal(withKey.status, 200, 'the shown key works');
  await keys.getByRole('button', { name: 'I have copied it' }).click();
  await keys.getByRole('rowheader', { name: 'node-red' }).waitFor();
  assert.equal(await keys.getByTestId('new-api-key').count(), 0, 'once copied, the key is gone from the page');

  const channels = page.locator('#channels');
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await channels.getByLabel('Name').fill('workshop');
  await channels.getByLabel('Address').fill(url);
  await channels.getByLabel('Signing secret').fill('hmac-key-123');
  await channels.getByRole('button', { name: 'Add channel' }).click();
  await channels.getByRole('button', { name: 'Send a test to workshop' }).click();
  await channels.getByText(/workshop received the test \(HTTP 200\)/).waitFor();
  assert.ok(
    received.some((r) => r.path === '/hook'),
    'the receiver got the test',
  );
  assert.ok(!(await page.content()).includes('hmac-key-123'), 'the secret is never shown again');
});

test('other settings: built from the schema, saved, refused with the key named', async () => {
  const form = page.locator('form.preferences', { has: page.getByRole('heading', { name: /^inventory:/ }) });
  await form.getByLabel('currency').fill('CHF');
  await form.getByRole('button', { name: 'Save inventory' }).click();
  await form.getByText('Saved.').waitFor();
  const auth = page.locator('form.preferences', { has: page.getByRole('heading', { name: /^auth:/ }) });
  await auth.getByLabel('token_expiry').fill('forever');
  await auth.getByRole('button', { name: 'Save auth' }).click();
  await auth.locator('.error-text', { hasText: 'a duration such as 30m' }).waitFor();
  const settings = await dash.request('get', '/api/settings', { token: await adminToken() });
  assert.equal(settings.json.values.inventory.currency, 'CHF');
  assert.equal(settings.json.values.auth.token_expiry, '24h');
});

test('the notification list: the bell leads there, mark all read empties the count', async () => {
  await page.locator('header .bell').click();
  await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
  await page.locator('.notification', { hasText: 'Slicer service disconnected' }).first().waitFor();
  await checkPage(page, 'notifications');
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await page.locator('header .bell[aria-label="Notifications, none unread"]').waitFor();
  assert.deepEqual(problems, []);
});

test('a view user sees only the system part, and the server refuses the rest', async () => {
  const viewer = await openSignedIn(browser, dash.url, VIEWER, '/settings', { colorScheme: 'dark' });
  await viewer.page.getByRole('heading', { name: 'System' }).waitFor();
  assert.equal(await viewer.page.locator('#box, #users, #api-keys, #channels, #preferences').count(), 0);
  await viewer.page.locator('header .pill').waitFor();
  assert.equal(await viewer.page.locator('header .pill-link').count(), 0, 'the indicator is not a link to settings for them');
  await checkPage(viewer.page, 'settings-viewer');
  const refused = await dash.request('patch', '/api/settings', { token: viewer.token, body: { box: { name: 'Mine' } } });
  assert.equal(refused.status, 403);
  assert.deepEqual(viewer.problems, []);
});

async function adminToken(): Promise<string> {
  return (await dash.request('post', '/api/auth/login', { body: ADMIN })).json.token;
}
