/**
 * The GPIO section of the settings page in Chromium against a real dashboard (auth, printers,
 * live, GPIO on a simulated chip, web): the pin map as the API has it, a door contact's level
 * following the chip, an admin switching a power relay (the chip's line follows), a view user
 * seeing the pins without switches. axe and screenshots at both widths.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { authFeature, gpioFeature, liveFeature, printersFeature, webFeature } from '../../../appliance/dashboard/features.js';
import { SimulatedChip } from '../../../appliance/hardware/gpio/simulated-chip.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { checkPage, launchChromium, openSignedIn } from './browser.js';

const ADMIN = { username: 'wirer', password: 'Spool-Yard-4711' };
const VIEWER = { username: 'looker', password: 'Glass-Bed-0815' };
const WAIT_MS = 20_000;
const RELAY = 17;
const DOOR = 22;
const LED = 25;

let dash: DashboardFixture;
let browser: Browser;
const chip = new SimulatedChip();

before(async () => {
  browser = await launchChromium();
  dash = await startDashboardFixture({
    features: [authFeature, printersFeature, liveFeature, gpioFeature, webFeature],
    services: { gpio: { chip } },
    config: { rate_limit: { enabled: false } },
    logLevel: 'error',
  });
  const setup = await dash.request('post', '/api/auth/setup', { body: ADMIN });
  assert.ok(setup.status < 300, setup.text);
  const token = (await dash.request('post', '/api/auth/login', { body: ADMIN })).json.token;
  assert.equal((await dash.request('post', '/api/users', { token, body: { ...VIEWER, role: 'view' } })).status, 201);
  // A printer that is switched off: its relay is what the page switches, no controller needed.
  const printer = await dash.request('post', '/api/printers', {
    token,
    body: { name: 'Mk4', type: 'marlin-serial', enabled: false, connection: { port: '/dev/ttyACM9' } },
  });
  assert.equal(printer.status, 201, printer.text);
  const map = await dash.request('put', '/api/hardware/gpio/config', {
    token,
    body: {
      pins: [
        { pin: RELAY, role: 'power_relay', printer_id: printer.json.id, active_low: true },
        { pin: DOOR, role: 'door', printer_id: printer.json.id, debounce_ms: 0 },
        { pin: LED, role: 'status_led' },
      ],
    },
  });
  assert.equal(map.status, 200, map.text);
});

after(async () => {
  await browser?.close();
  await dash?.cleanup();
});

test('an admin sees the pins with their roles and levels and switches the power relay', async () => {
  const { page, problems } = await openSignedIn(browser, dash.url, ADMIN, '/settings');
  const relay = page.locator(`tr[data-pin="${RELAY}"]`);
  await relay.waitFor({ timeout: WAIT_MS });
  assert.deepEqual(await relay.locator('td').allTextContents(), [String(RELAY), 'Power relay', 'Mk4', 'off (idle)', 'Switch on']);
  const door = page.locator(`tr[data-pin="${DOOR}"]`);
  assert.match((await door.textContent()) ?? '', /Door.*Mk4.*inactive/);
  assert.match((await page.locator('#gpio').textContent()) ?? '', /Chip simulated, GPIO numbers from 0/);
  await checkPage(page, 'settings-gpio');

  await page.getByRole('button', { name: `Switch on GPIO ${RELAY}` }).click();
  await page.getByRole('button', { name: `Switch off GPIO ${RELAY}` }).waitFor({ timeout: WAIT_MS });
  assert.equal(chip.level(RELAY), 1);
  assert.match((await relay.textContent()) ?? '', /on \(/);
  await page.getByRole('button', { name: `Switch off GPIO ${RELAY}` }).click();
  await page.getByRole('button', { name: `Switch on GPIO ${RELAY}` }).waitFor({ timeout: WAIT_MS });
  assert.equal(chip.level(RELAY), 0);

  // The door opens: the page reads the levels again by itself.
  chip.drive(DOOR, 1);
  await page.waitForFunction(
    (pin) => /active/.test((globalThis as any).document.querySelector(`tr[data-pin="${pin}"]`)?.textContent.replace('inactive', '') ?? ''),
    DOOR,
    {
      timeout: WAIT_MS,
    },
  );
  assert.deepEqual(problems, []);
});

test('a view user sees the pins but no switches', async () => {
  const { page, problems } = await openSignedIn(browser, dash.url, VIEWER, '/settings');
  await page.locator(`tr[data-pin="${RELAY}"]`).waitFor({ timeout: WAIT_MS });
  assert.equal(await page.getByRole('button', { name: /Switch (on|off) GPIO/ }).count(), 0);
  assert.deepEqual(problems, []);
});
