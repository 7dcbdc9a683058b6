/**
 * The Updates section of the settings page in Chromium against a real dashboard and a real
 * `rauc service` (test/fixtures/rauc.ts): the booted slot and both slots, a bundle from another
 * CA refused with RAUC's reason, an upgrade uploaded with its progress and installed, the reboot
 * into it; a view user sees the slots without the upload. axe and screenshots at both widths.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { authFeature, liveFeature, systemUpdateFeature, webFeature } from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { makeBundle, makeDevCa, makeRootfs, raucInstallMissing, startRaucSystem, type RaucSystem } from '../../fixtures/rauc.js';
import { checkPage, launchChromium, openSignedIn } from './browser.js';

const ADMIN = { username: 'updater', password: 'Slot-Swap-2718' };
const VIEWER = { username: 'watcher', password: 'Glass-Bed-0815' };
const WAIT_MS = 30_000;

describe('the Updates section', { skip: raucInstallMissing() }, () => {
  let system: RaucSystem;
  let dash: DashboardFixture;
  let browser: Browser;
  let upgrade: string;
  let foreign: string;
  let rebootMarker: string;

  before(async () => {
    system = await startRaucSystem();
    rebootMarker = path.join(system.dir, 'rebooted');
    upgrade = makeBundle({
      version: '1.1.0',
      format: 'plain',
      ca: system.ca,
      rootfs: makeRootfs(system.dir, '1.1.0'),
      out: path.join(system.dir, 'up.raucb'),
    });
    foreign = makeBundle({
      version: '1.1.0',
      format: 'plain',
      ca: makeDevCa(path.join(system.dir, 'other-ca')),
      rootfs: makeRootfs(system.dir, 'foreign'),
      out: path.join(system.dir, 'foreign.raucb'),
    });
    browser = await launchChromium();
    dash = await startDashboardFixture({
      features: [authFeature, liveFeature, systemUpdateFeature, webFeature],
      services: { updates: { rauc: { conf: system.conf, env: system.env }, rebootCommand: ['touch', rebootMarker], runningVersion: '1.0.0' } },
      config: { rate_limit: { enabled: false } },
      logLevel: 'error',
    });
    assert.ok((await dash.request('post', '/api/auth/setup', { body: ADMIN })).status < 300);
    const token = (await dash.request('post', '/api/auth/login', { body: ADMIN })).json.token;
    assert.equal((await dash.request('post', '/api/users', { token, body: { ...VIEWER, role: 'view' } })).status, 201);
  });

  after(async () => {
    await browser?.close();
    await dash?.cleanup();
    await system?.stop();
  });

  test('an admin sees the slots, a foreign bundle refused, an upgrade installed with progress, and reboots into it', async () => {
    const { page, problems } = await openSignedIn(browser, dash.url, ADMIN, '/settings');
    const section = page.locator('#updates');
    await section.locator('tr[data-slot="B"]').waitFor({ timeout: WAIT_MS });
    assert.match((await section.locator('.booted-slot').textContent()) ?? '', /Running slot A, version 1\.0\.0/);
    assert.deepEqual(await section.locator('tr[data-slot="A"] td').allTextContents(), ['A', 'running', 'as delivered', 'good']);
    assert.deepEqual((await section.locator('tr[data-slot="B"] td').allTextContents()).slice(0, 3), ['B', 'standby', 'as delivered']);
    await checkPage(page, 'settings-updates');

    const install = section.getByRole('button', { name: 'Upload and install' });
    await section.getByLabel('Update bundle (.raucb)').setInputFiles(foreign);
    await install.click();
    await section
      .getByRole('alert')
      .filter({ hasText: /signature is not trusted/ })
      .waitFor({ timeout: WAIT_MS });

    await section.getByLabel('Update bundle (.raucb)').setInputFiles(upgrade);
    await install.click();
    await section.getByRole('status').filter({ hasText: 'Version 1.1.0 is installed. Reboot to start it.' }).waitFor({ timeout: WAIT_MS });
    await section.locator('tr[data-slot="B"] td', { hasText: '1.1.0' }).waitFor({ timeout: WAIT_MS });
    assert.match((await section.locator('.last-update').textContent()) ?? '', /Last update: 1\.1\.0, installed/);

    await section.getByRole('button', { name: 'Reboot into the update' }).click();
    await section.getByRole('status').filter({ hasText: 'The box is rebooting' }).waitFor({ timeout: WAIT_MS });
    assert.ok(existsSync(rebootMarker), 'the reboot command ran');
    assert.deepEqual(problems, []);
  });

  test('a view user sees the slots but cannot upload', async () => {
    const { page, problems } = await openSignedIn(browser, dash.url, VIEWER, '/settings');
    await page.locator('#updates tr[data-slot="A"]').waitFor({ timeout: WAIT_MS });
    assert.equal(await page.locator('#updates input[type="file"]').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Upload and install' }).count(), 0);
    assert.deepEqual(problems, []);
  });
});
