/**
 * The models page in Chromium against a real dashboard with model generation and the built-in
 * slicer: a gear generated from its form, watched live to done, its STL downloaded and read back;
 * the server's refusal of parameters that do not fit shown beside the form; a lithophane from an
 * uploaded PNG; a scene of two finished models arranged and sliced, its result added to the queue;
 * a view user who sees jobs and scenes without controls (and whom the server refuses anyway).
 * checkPage (axe, 1280×800 and 390×844) with screenshots.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  authFeature,
  bridgeFeature,
  liveFeature,
  modelGenerationFeature,
  nativeSlicingFeature,
  printersFeature,
  queueFeature,
  slicerServiceFeature,
  webFeature,
} from '../../../appliance/dashboard/features.js';
import { marlinSerialDriverFactory } from '../../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { loadModel } from '../../../appliance/slicer/engine/mesh/load.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { ADMIN, loginAs, setupAdmin, USER_PASSWORD } from '../../fixtures/dashboard-auth.js';
import { rampPng } from '../../fixtures/gradient-image.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../../fixtures/virtual-marlin.js';
import { NO_DESKTOP_SLICERS } from '../slicing/remote/remote-dashboard.js';
import { checkPage, launchChromium, openSignedIn, PHONE } from './browser.js';

const VIEWER = { username: 'view-user', password: USER_PASSWORD };
const PROFILES = { printer: 'generic-marlin-0.4', filament: 'generic-pla', process: '0.20mm-standard' };
const WAIT_MS = 60_000;

let dash: DashboardFixture;
let marlin: VirtualMarlinFixture;
let browser: Browser;
let adminToken = '';
let page: Page;
let problems: string[];

before(async () => {
  [marlin, browser] = await Promise.all([startVirtualMarlin({ speed: 100 }), launchChromium()]);
  const drivers = new DriverRegistry();
  drivers.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
  dash = await startDashboardFixture({
    config: { slicer_service: { enabled: false } },
    features: [
      authFeature,
      printersFeature,
      liveFeature,
      queueFeature,
      nativeSlicingFeature,
      bridgeFeature,
      slicerServiceFeature,
      modelGenerationFeature,
      webFeature,
    ],
    services: { bridge: NO_DESKTOP_SLICERS, printers: { drivers } },
    logLevel: 'warn',
  });
  adminToken = await setupAdmin(dash);
  await loginAs(dash, 'view');
  const printer = await dash.request('post', '/api/printers', {
    token: adminToken,
    body: { name: 'Mk3', type: 'marlin-serial', printer_profile: PROFILES.printer, connection: { port: marlin.hostPath } },
  });
  assert.equal(printer.status, 201, printer.text);
});

after(async () => {
  await browser?.close();
  await dash?.cleanup();
  await marlin?.stop();
});

/** What an element says (textContent: the words, without layout). */
const text = async (l: Locator) => (await l.textContent()) ?? '';
const card = (p: Page, generator: string) => p.locator(`.gen-card[data-generator="${generator}"]`);
const jobRows = (p: Page) => p.locator('.job-row');

async function openParameters(p: Page, generator: string): Promise<void> {
  const details = card(p, generator).locator('details.gen-parameters');
  if (!(await details.evaluate((d) => (d as unknown as { open: boolean }).open))) await details.locator('summary').click();
}

test('the generators are forms from their schemas with the defaults filled in', async () => {
  ({ page, problems } = await openSignedIn(browser, dash.url, ADMIN, '/models'));
  await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
  await card(page, 'gear').waitFor();
  const ids = await page.locator('.gen-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-generator')));
  assert.ok(ids.includes('text') && ids.includes('image') && ids.includes('sketch') && ids.includes('retraction-test'), String(ids));
  assert.ok(!ids.includes('remote-text'), 'no provider configured: not listed');
  await openParameters(page, 'gear');
  const teeth = page.locator('#gen-gear-teeth');
  assert.equal(await teeth.inputValue(), '20');
  assert.deepEqual([await teeth.getAttribute('min'), await teeth.getAttribute('max'), await teeth.getAttribute('step')], ['8', '150', '1']);
  assert.equal(await text(page.locator('label[for="gen-gear-module"]')), 'Module (mm)');
  assert.equal(await page.locator('#gen-text-style').evaluate((e) => e.tagName), 'SELECT', 'an enum is a select');
  await openParameters(page, 'sketch');
  assert.equal(await page.locator('#gen-sketch-points').evaluate((e) => e.tagName), 'TEXTAREA', 'points are a text area');
  await checkPage(page, 'models-empty');
});

test('a refusal: parameters that do not fit are shown beside the form, and a point list is checked before it is sent', async () => {
  await page.locator('#gen-gear-bore_diameter').fill('60');
  await card(page, 'gear').getByRole('button', { name: 'Generate' }).click();
  const alert = card(page, 'gear').locator('[role="alert"]');
  await alert.waitFor();
  assert.match(await text(alert), /^Refused: .*bore must leave at least one module/);
  assert.equal(await jobRows(page).count(), 0, 'no job was made');

  await page.locator('#gen-sketch-source').selectOption('points');
  await page.locator('#gen-sketch-points').fill('[[0,0],[40,0],[40]]');
  await card(page, 'sketch').getByRole('button', { name: 'Generate' }).click();
  await page.locator('#gen-sketch-points-error').waitFor();
  assert.match(await text(page.locator('#gen-sketch-points-error')), /\[x, y\] in mm/);
  assert.equal(await page.locator('#gen-sketch-points').getAttribute('aria-invalid'), 'true');
});

test('a gear from the form runs to done live, with its facts, and downloads as an STL the slicer reads', async () => {
  await page.locator('#gen-gear-bore_diameter').fill('5');
  await page.locator('#gen-gear-teeth').fill('12');
  await page.locator('#gen-gear-thickness').fill('4');
  const seen = new Set<string>();
  await card(page, 'gear').getByRole('button', { name: 'Generate' }).click();
  const row = jobRows(page).first();
  await row.waitFor();
  // The row's states as the live feed delivers them, without a reload.
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const state = await row.getAttribute('data-state');
    if (state !== null) seen.add(state);
    if (state === 'done' || state === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(await row.getAttribute('data-state'), 'done', `states seen: ${[...seen]}`);
  assert.ok(seen.size >= 2, `a state before done was shown: ${[...seen]}`);
  assert.match(await text(row.locator('[data-fact="size"]')), /^28\.0 × 28\.0 × 4\.0 mm$/);
  assert.match(await text(row), /pitch diameter mm\s*24/);

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /as STL$/ }).click()]);
  assert.match(download.suggestedFilename(), /^gear-[0-9a-f]{8}\.stl$/);
  const model = await loadModel(new Uint8Array(readFileSync(await download.path())), download.suggestedFilename());
  const triangles = model.objects.reduce((n, o) => n + o.mesh.indices.length / 3, 0);
  assert.equal(triangles.toLocaleString('en-US'), await text(row.locator('[data-fact="triangles"]')), 'the whole mesh, as the row says');
});

test('a lithophane from an uploaded PNG, its options in the query', async () => {
  const picture = card(page, 'image');
  await picture.getByRole('button', { name: 'Generate' }).click();
  assert.match(await text(picture.locator('[role="alert"]')), /Choose a picture first/);
  await page.locator('#gen-image-file').setInputFiles({ name: 'ramp.png', mimeType: 'image/png', buffer: rampPng(64, 32) });
  await openParameters(page, 'image');
  await page.locator('#gen-image-width').fill('60');
  await picture.getByRole('button', { name: 'Generate' }).click();
  await picture.locator('[role="status"]').waitFor();
  const row = jobRows(page).first();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('.job-row')?.getAttribute('data-state') === 'done', undefined, {
    timeout: WAIT_MS,
  });
  const rowText = await text(row);
  assert.match(rowText, /^Lithophane or relief from a picture/);
  // 60 mm wide with its frame; a 2:1 picture inside a 2 mm frame is 28 + 4 mm high.
  assert.match(await text(row.locator('[data-fact="size"]')), /^60\.0 × 32\.0 × /);
  assert.match(rowText, /picture\s*format png, width px 64, height px 32/);
});

test('a scene of two finished models: edited, arranged, sliced, the result added to the queue', async () => {
  const jobNames = await page.locator('.scene-jobs label').allTextContents();
  assert.equal(jobNames.length, 2, String(jobNames));
  await page.getByLabel('Scene name').fill('Plate 1');
  for (const label of await page.locator('.scene-jobs input').all()) await label.check();
  await page.getByRole('button', { name: 'Create scene' }).click();
  const editor = page.locator('.scene-editor');
  await editor.waitFor();
  // The editor takes the focus in an effect after its first render: wait for it, then say where it went.
  await page
    .waitForFunction(() => (globalThis as any).document.activeElement?.id === 'scene-edit-title', undefined, { timeout: WAIT_MS })
    .catch(() => undefined);
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'scene-edit-title', 'the opened scene has the focus');
  assert.equal(await editor.locator('.scene-object').count(), 2);
  await page.getByLabel('Printer profile').selectOption(PROFILES.printer);
  await page.getByLabel('Filament').selectOption(PROFILES.filament);
  await page.getByLabel('Process').selectOption(PROFILES.process);

  // Both at the centre: the slice is refused, in words.
  await editor.getByRole('button', { name: 'Slice', exact: true }).click();
  const message = editor.locator('[data-scene-message]');
  await message.waitFor({ timeout: WAIT_MS });
  assert.match(await text(message), /^Objects overlap: /);
  // Off the bed (220 mm wide): refused as outside.
  await page.locator('#scene-obj-0-tx').fill('200');
  await editor.getByRole('button', { name: 'Slice', exact: true }).click();
  await page.waitForFunction(() => /^Outside the bed: /.test((globalThis as any).document.querySelector('[data-scene-message]')?.textContent ?? ''));

  await editor.getByRole('button', { name: 'Arrange' }).click();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-scene-message]')?.textContent === 'Arranged on the bed.');
  const xs = [await page.locator('#scene-obj-0-tx').inputValue(), await page.locator('#scene-obj-1-tx').inputValue()];
  assert.notEqual(xs[0], xs[1], `arranged apart: ${xs}`);
  const stored = (await dash.request('get', '/api/ai-model/scenes', { token: adminToken })).json[0];
  assert.deepEqual(
    stored.objects.map((o: { transform: { translate: { x: number } } }) => String(o.transform.translate.x)),
    xs,
  );
  assert.equal(stored.printer_id, PROFILES.printer, 'the profiles were saved with the scene');

  await page.locator('#scene-obj-1-rz').fill('45');
  await editor.getByRole('button', { name: 'Slice', exact: true }).click();
  await editor.locator('.slice-result').waitFor({ timeout: WAIT_MS });
  assert.equal(await editor.locator('[data-backend]').getAttribute('data-backend'), 'native');
  assert.match(await text(editor.locator('[data-estimate="time"]')), /min/);
  const [gcode] = await Promise.all([page.waitForEvent('download'), editor.getByRole('button', { name: 'Download G-code' }).click()]);
  const gcodeText = readFileSync(await gcode.path(), 'utf8');
  assert.match(gcodeText, /^M486 T2$/m, 'the two objects are announced, so a printer can skip one');
  await checkPage(page, 'models-scene-sliced');

  await editor.getByRole('button', { name: 'Add to the queue' }).click();
  await editor.locator('.slice-send [role="status"]').waitFor({ timeout: WAIT_MS });
  const queue = (await dash.request('get', '/api/queue', { token: adminToken })).json;
  assert.equal(queue.items.length, 1, JSON.stringify(queue).slice(0, 300));

  // "Slice and start" goes through the scene's own slice-and-send (its calibration changes would go along).
  const [started] = await Promise.all([
    page.waitForResponse((r) => /\/api\/ai-model\/scenes\/[^/]+\/slice-and-send$/.test(r.url()), { timeout: WAIT_MS }),
    editor.getByRole('button', { name: 'Slice and start' }).click(),
  ]);
  assert.equal(started.status(), 200, await started.text());
  await page.waitForFunction(
    () => /^Started on Mk3 as /.test((globalThis as any).document.querySelector('.slice-send [role="status"]')?.textContent ?? ''),
    null,
    {
      timeout: WAIT_MS,
    },
  );

  const [file] = await Promise.all([page.waitForEvent('download'), editor.getByRole('button', { name: 'Download 3MF' }).click()]);
  assert.equal(file.suggestedFilename(), 'Plate 1.3mf');
  const placed = await loadModel(new Uint8Array(readFileSync(await file.path())), 'scene.3mf');
  assert.equal(placed.objects.length, 2);
  assert.deepEqual(problems, []);
});

test('a view user sees the jobs and scenes without controls, and the server refuses them', async () => {
  const viewer = await openSignedIn(browser, dash.url, VIEWER, '/models');
  const p = viewer.page;
  await p.locator('.job-row[data-state="done"]').first().waitFor();
  assert.match(await text(p.locator('main .hint').first()), /needs the print role/);
  assert.equal(await p.locator('.gen-card').count(), 0, 'no generator forms');
  assert.equal(await p.getByRole('button', { name: /^Delete/ }).count(), 0, 'no delete');
  assert.equal(await p.getByRole('button', { name: 'Create scene' }).count(), 0);
  await p.getByRole('button', { name: 'Open scene Plate 1' }).click();
  await p.locator('.scene-read li').first().waitFor();
  for (const name of ['Save', 'Arrange', 'Slice', 'Delete scene']) assert.equal(await p.getByRole('button', { name, exact: true }).count(), 0, name);
  await p.getByRole('button', { name: 'Download 3MF' }).waitFor();
  await checkPage(p, 'models-view');
  await p.setViewportSize(PHONE);
  assert.equal(await p.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), PHONE.width, 'nothing wider than a phone');
  const refused = await dash.request('post', '/api/ai-model/gear', { token: viewer.token, body: {} });
  assert.equal(refused.status, 403);
  const jobId = await p.locator('.job-row').first().getAttribute('data-job');
  assert.equal((await dash.request('delete', `/api/ai-model/jobs/${jobId}`, { token: viewer.token })).status, 403);
  assert.deepEqual(viewer.problems, []);
  await p.context().close();
});

test('a job deleted from the page leaves its scene object missing, which the page says; the scene is deleted', async () => {
  page.on('dialog', (dialog) => void dialog.accept());
  const gearRow = page.locator('.job-row', { hasText: 'Spur gear' });
  const gearId = await gearRow.getAttribute('data-job');
  await gearRow.getByRole('button', { name: /^Delete job/ }).click();
  await page.locator(`.job-row[data-job="${gearId}"]`).waitFor({ state: 'detached' });
  assert.equal((await dash.request('get', `/api/ai-model/jobs/${gearId}`, { token: adminToken })).status, 404);
  const editor = page.locator('.scene-editor');
  await editor.getByText(/^Missing: generation job .* was deleted/).waitFor();
  assert.match(await text(page.locator('.scenes li').first()), /2 objects, 1 missing/);
  await editor.getByRole('button', { name: 'Slice', exact: true }).click();
  // The edits are saved before a slice, and a scene naming a deleted job is not saved: the page says what to do.
  await page.waitForFunction(() =>
    /^A model is gone: .*Remove it/.test((globalThis as any).document.querySelector('[data-scene-message]')?.textContent ?? ''),
  );
  await editor.getByRole('button', { name: /^Remove gear-/ }).click();
  await editor.getByRole('button', { name: 'Save' }).click();
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-scene-message]')?.textContent === 'Saved.');
  assert.equal(await editor.locator('.scene-object').count(), 1);
  assert.equal((await dash.request('get', '/api/ai-model/scenes', { token: adminToken })).json[0].missing, 0);
  await editor.getByRole('button', { name: 'Delete scene' }).click();
  await editor.waitFor({ state: 'detached' });
  assert.deepEqual((await dash.request('get', '/api/ai-model/scenes', { token: adminToken })).json, []);
  assert.equal(await text(page.locator('.scene-list .hint').first()), 'No scenes yet.');
  assert.deepEqual(problems, []);
});
