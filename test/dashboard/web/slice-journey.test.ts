/**
 * The journey from the slice page in Chromium, against a real dashboard with its remote
 * slicer configured to the real printyard-slicer service (HTTP + SSE) and a virtual Marlin printer:
 * log in → slice a model with visible progress (values between 0 and 100 seen, not only the end)
 * → the first layer, the estimate and the backend → send it to the Marlin printer → the fleet card
 * shows the print's progress → pause and resume from the card; the sliced file added to the queue;
 * a model that is not one shown in words; a view user sees no slice or send controls and the
 * server refuses them the slice. The page is checked with axe and screenshotted at both widths:
 * empty, slicing, sliced.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  authFeature,
  bridgeFeature,
  liveFeature,
  nativeSlicingFeature,
  printersFeature,
  queueFeature,
  slicerServiceFeature,
  webFeature,
} from '../../../appliance/dashboard/features.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { modelBytes } from '../../fixtures/model-files.js';
import { startSlicer, type SlicerProcess } from '../../fixtures/slicer-service.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { NO_DESKTOP_SLICERS } from '../slicing/remote/remote-dashboard.js';
import { checkPage, DESKTOP, launchChromium, openSignedIn, waitForPath, watchProblems } from './browser.js';

const ADMIN = { username: 'owner', password: 'Spool-Yard-4711' };
const VIEWER = { username: 'watcher', password: 'Glass-Bed-0815' };
const PROFILES = { printer: 'generic-marlin-0.4', filament: 'generic-pla', process: '0.08mm-extra-fine' };
const WAIT_MS = 60_000;

let slicer: SlicerProcess;
let marlin: VirtualMarlinFixture;
let dash: DashboardFixture;
let browser: Browser;
let adminToken = '';
let marlinId = '';
let page: Page;
let problems: string[];

before(async () => {
  [slicer, marlin, browser] = await Promise.all([startSlicer(), startVirtualMarlin({ speed: 20 }), launchChromium()]);
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    config: { slicer_service: { enabled: true, url: slicer.url, token: '' } },
    features: [authFeature, printersFeature, liveFeature, queueFeature, nativeSlicingFeature, bridgeFeature, slicerServiceFeature, webFeature],
    // No desktop slicer: the chain is the service, then the built-in engine.
    services: { printers: { drivers }, bridge: NO_DESKTOP_SLICERS },
    logLevel: 'warn',
  });
  const setup = await dash.request('post', '/api/auth/setup', { body: ADMIN });
  assert.equal(setup.status, 201, setup.text);
  const login = await dash.request('post', '/api/auth/login', { body: ADMIN });
  assert.equal(login.status, 200, login.text);
  adminToken = login.json.token;
  const viewer = await dash.request('post', '/api/users', { token: adminToken, body: { ...VIEWER, role: 'view' } });
  assert.equal(viewer.status, 201, viewer.text);
  const created = await dash.request('post', '/api/printers', {
    token: adminToken,
    body: { name: 'Marlin MK3', type: 'marlin-serial', printer_profile: PROFILES.printer, connection: { port: marlin.hostPath } },
  });
  assert.equal(created.status, 201, created.text);
  marlinId = created.json.id;
});

after(async () => {
  await browser?.close();
  await dash?.cleanup();
  await Promise.all([slicer?.cleanup(), marlin?.stop()]);
});

async function chooseProfiles(p: Page): Promise<void> {
  await p.getByLabel('Printer profile').selectOption(PROFILES.printer);
  await p.getByLabel('Filament').selectOption(PROFILES.filament);
  await p.getByLabel('Process').selectOption(PROFILES.process);
}

const chooseModel = (p: Page, name: string, buffer: Buffer) =>
  p.locator('#slice-model').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });

test('log in and open the slice page: the service is reachable, its profiles are listed', async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  problems = watchProblems(page);
  await page.goto(`${dash.url}/slice`);
  await waitForPath(page, /^\/login\?next=%2Fslice$/);
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await waitForPath(page, /^\/slice$/);
  await page.getByRole('heading', { name: 'Slice', level: 1 }).waitFor();
  await page.locator('.service-line[data-service="ok"]').waitFor({ timeout: WAIT_MS });
  await page.locator(`#slice-profile-printer option[value="${PROFILES.printer}"]`).waitFor({ state: 'attached' });
  assert.equal(await page.getByLabel('Profiles from').inputValue(), 'remote');
  assert.equal(await page.getByRole('button', { name: 'Slice', exact: true }).isDisabled(), true, 'nothing to slice yet');
  await checkPage(page, 'slice-empty');
});

test('a file dropped on the page that is not a model is refused in words', async () => {
  // A drop as the browser delivers it: a DragEvent whose DataTransfer holds the file.
  await page.evaluate(() => {
    const g = globalThis as any;
    const data = new g.DataTransfer();
    data.items.add(new g.File(['these are not triangles\n'.repeat(20)], 'notes.stl'));
    const zone = g.document.querySelector('.drop');
    zone.dispatchEvent(new g.DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new g.DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await page.getByText('notes.stl (1 KB)').waitFor();
  await chooseProfiles(page);
  await page.getByRole('button', { name: 'Slice', exact: true }).click();
  const alert = page.locator('.slice-go [role="alert"]');
  await alert.waitFor({ timeout: WAIT_MS });
  assert.match((await alert.textContent()) ?? '', /^The model could not be sliced: /);
});

test('a slice can be cancelled: the page is ready again and the job on the service is cancelled', async () => {
  await chooseModel(page, 'box.stl', Buffer.from(modelBytes('box.stl')));
  await page.getByRole('button', { name: 'Slice', exact: true }).click();
  await page.waitForFunction(() => ((globalThis as any).document.querySelector('#slice-progress-bar')?.value ?? 0) > 0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.locator('#slice-progress-bar').waitFor({ state: 'detached' });
  assert.equal(await page.getByRole('button', { name: 'Slice', exact: true }).isEnabled(), true);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const jobs = await dash.request('get', '/api/slicer/remote/jobs', { token: adminToken });
    assert.equal(jobs.status, 200, jobs.text);
    const states = (jobs.json.finished ?? []).map((j: { state: string }) => j.state);
    if ((jobs.json.running ?? []).length === 0 && states.includes('cancelled')) break;
    assert.ok(Date.now() < deadline, `the service's job was not cancelled: ${jobs.text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.equal(await page.locator('.slice-result').count(), 0);
});

test('slicing shows its progress live, then the first layer, the estimate and the backend', async () => {
  assert.equal(await page.locator('.slice-go [role="alert"]').count(), 0, 'a new model clears the last problem');
  // Every value the progress bar takes, read in the page as it changes.
  await page.evaluate(() => {
    const seen: number[] = [];
    (globalThis as any).progressSeen = seen;
    const timer = setInterval(() => {
      const bar = (globalThis as any).document.querySelector('#slice-progress-bar');
      if (bar !== null && seen[seen.length - 1] !== bar.value) seen.push(bar.value);
      if ((globalThis as any).document.querySelector('.slice-result') !== null) clearInterval(timer);
    }, 10);
  });
  await page.getByRole('button', { name: 'Slice', exact: true }).click();
  await page.getByRole('button', { name: 'Slicing…' }).waitFor();
  await page.waitForFunction(() => {
    const value = (globalThis as any).document.querySelector('#slice-progress-bar')?.value ?? 0;
    return value > 0 && value < 100;
  });
  await checkPage(page, 'slice-progress');
  await page.locator('.slice-result').waitFor({ timeout: WAIT_MS });
  const seen = (await page.evaluate(() => (globalThis as any).progressSeen)) as number[];
  const between = seen.filter((v) => v > 0 && v < 100);
  assert.ok(between.length >= 2, `intermediate progress values, not only the end: ${seen.join(', ')}`);
  assert.deepEqual(
    between,
    [...between].sort((a, b) => a - b),
    'progress only grows',
  );

  assert.equal(await page.locator('[data-backend]').getAttribute('data-backend'), 'remote');
  assert.equal(await page.locator('[data-backend]').textContent(), 'the slicer service');
  assert.match((await page.locator('[data-estimate="time"]').textContent()) ?? '', /^(\d+ h )?\d+ min$/);
  assert.match((await page.locator('[data-estimate="filament"]').textContent()) ?? '', /^\d+\.\d g \(\d+\.\d\d m\)$/);
  const preview = page.getByRole('img', { name: 'First layer of box.gcode, seen from above' });
  await preview.waitFor();
  await page.waitForFunction(() => {
    const img = (globalThis as any).document.querySelector('img.preview');
    return img?.complete && img.naturalWidth > 0;
  });
  await checkPage(page, 'slice-result');
});

test('the sliced file is added to the queue', async () => {
  await page.getByLabel('Copies').fill('2');
  await page.getByRole('button', { name: 'Add to the queue' }).click();
  const said = page.locator('.slice-send [role="status"], .slice-send [role="alert"]');
  await said.waitFor({ timeout: WAIT_MS });
  assert.equal(await said.textContent(), 'Added "box" to the queue (2 copies).');
  const queue = await dash.request('get', '/api/queue', { token: adminToken });
  assert.equal(queue.status, 200, queue.text);
  const [job] = queue.json.items;
  assert.deepEqual([job.name, job.file.format, job.copies.length], ['box', 'gcode', 2]);
  // A new printer's plate is unknown, which the queue counts as occupied: it waits; removed, it never starts.
  const removed = await dash.request('delete', `/api/queue/${job.id}`, { token: adminToken });
  assert.equal(removed.status, 204, removed.text);
});

test('sent to the Marlin printer, the fleet card shows the progress; pause and resume from the card', async () => {
  const printer = page.getByLabel('Printer', { exact: true });
  await page.locator(`#slice-target option[value="${marlinId}"]:not([disabled])`).waitFor({ state: 'attached', timeout: WAIT_MS });
  assert.equal(await printer.inputValue(), marlinId);
  await page.getByRole('button', { name: 'Slice and start' }).click();
  await page.getByText('Started on Marlin MK3 as box.gcode.').waitFor({ timeout: WAIT_MS });

  await page.getByRole('link', { name: 'Fleet' }).click();
  await waitForPath(page, /^\/$/);
  const card = page.locator(`[data-printer="${marlinId}"]`);
  await page.locator(`[data-printer="${marlinId}"][data-state="printing"]`).waitFor({ timeout: WAIT_MS });
  await card.getByText('box.gcode').waitFor();
  await page.waitForFunction((id) => ((globalThis as any).document.querySelector(`[data-printer="${id}"] progress`)?.value ?? 0) > 0, marlinId, {
    timeout: WAIT_MS,
  });

  await card.getByRole('button', { name: 'Pause: Marlin MK3' }).click();
  await page.locator(`[data-printer="${marlinId}"][data-state="paused"]`).waitFor({ timeout: WAIT_MS });
  await card.getByRole('button', { name: 'Resume: Marlin MK3' }).click();
  await page.locator(`[data-printer="${marlinId}"][data-state="printing"]`).waitFor({ timeout: WAIT_MS });
  const stopped = await dash.request('post', `/api/printers/${marlinId}/control`, { token: adminToken, body: { action: 'stop' } });
  assert.ok(stopped.status < 300, stopped.text);
  assert.deepEqual(problems, []);
});

test('a view user sees what would slice but no slice or send controls; the server refuses the slice', async () => {
  const viewer = await openSignedIn(browser, dash.url, VIEWER, '/slice', { colorScheme: 'dark' });
  await viewer.page.getByText('Your role may look but not slice').waitFor();
  await viewer.page.locator('.service-line[data-service="ok"]').waitFor({ timeout: WAIT_MS });
  for (const control of ['#slice-model', '#slice-profile-printer', '#slice-target', '#slice-copies']) {
    assert.equal(await viewer.page.locator(control).count(), 0, control);
  }
  for (const name of ['Slice', 'Slice and start', 'Add to the queue']) {
    assert.equal(await viewer.page.getByRole('button', { name, exact: true }).count(), 0, name);
  }
  await checkPage(viewer.page, 'slice-view-dark');
  const form = new FormData();
  form.append('model', new Blob([modelBytes('box.stl')]), 'box.stl');
  form.append('printer_id', PROFILES.printer);
  form.append('filament_ids', JSON.stringify([PROFILES.filament]));
  form.append('process_id', PROFILES.process);
  const refused = await fetch(`${dash.url}/api/slicer/remote/slice/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${viewer.token}` },
    body: form,
  });
  assert.equal(refused.status, 403, await refused.text());
  assert.deepEqual(viewer.problems, []);
});

test('with the slicer service turned off, the page says so and the built-in engine slices, naming what it passed over', async () => {
  const off = await dash.request('post', '/api/slicer/remote/configure', { token: adminToken, body: { enabled: false } });
  assert.equal(off.status, 200, off.text);
  await page.goto(`${dash.url}/slice`);
  await page.locator('.service-line[data-service="off"]').waitFor({ timeout: WAIT_MS });
  assert.match((await page.locator('.service-line').textContent()) ?? '', /Not configured: the built-in engine slices/);
  assert.equal(await page.getByLabel('Profiles from').count(), 0, 'only the built-in catalogue is offered');
  await page.locator(`#slice-profile-printer option[value="${PROFILES.printer}"]`).waitFor({ state: 'attached' });
  await chooseModel(page, 'sponge-8mm.stl', Buffer.from(modelBytes('sponge-8mm.stl')));
  await chooseProfiles(page);
  await page.getByRole('button', { name: 'Slice', exact: true }).click();
  await page.locator('.slice-result').waitFor({ timeout: WAIT_MS });
  assert.equal(await page.locator('[data-backend]').textContent(), 'the built-in engine');
  const skipped = await page.locator('.skipped li').allTextContents();
  assert.equal(skipped.length, 2, skipped.join('\n'));
  assert.match(skipped[0], /^Passed over the slicer service: .*disabled/);
  assert.match(skipped[1], /^Passed over the desktop slicer: no desktop slicer/);
  await page.getByRole('img', { name: 'First layer of sponge-8mm.gcode, seen from above' }).waitFor();
  await checkPage(page, 'slice-fallback');
  assert.deepEqual(problems, []);
});
