import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { inventoryToolsFeature } from '../../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { launchChromium } from '../../../fixtures/chromium.js';
import { MemorySpools, stockedSpool } from '../../../fixtures/memory-spools.js';

const MM_IN_PT = 72 / 25.4;

const hostile = '<img src=x onerror="alert(1)">&"\'';
const spools = new MemorySpools([
  stockedSpool({ id: 3, short_id: 'K7Q2', material: 'PETG', color_hex: '#ff8800', vendor: 'Prusament', name: 'Galaxy Black', used_weight_g: 250.4 }),
  stockedSpool({ id: 4, short_id: 'X<1>', material: hostile, color_hex: 'red;background:url(http://evil)', vendor: hostile, name: null }),
  stockedSpool({ id: 5, material: 'PLA', color_hex: '#ff0000', multi_color_hexes: ['#ff0000', '#00ff00', '#0000ff'], expiry_date: '2027-03-01' }),
]);

let dash: DashboardFixture;
let browser: Browser;
before(async () => {
  dash = await startDashboardFixture({
    features: [inventoryToolsFeature],
    services: { spools },
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await dash.cleanup();
});

/** Opens the label in Chromium with a view token; returns the page and what the browser refused or reported. */
async function openLabel(id: number) {
  const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${TEST_TOKENS.view}` } });
  // Browsers ask for a favicon on their own; the API has none, and its 404 is not the label's.
  await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  const page = await context.newPage();
  const complaints: string[] = [];
  page.on('console', (message) => complaints.push(message.text()));
  page.on('pageerror', (err) => complaints.push(err.message));
  const response = await page.goto(`${dash.url}/api/inventory/spools/${id}/label`);
  assert.equal(response?.status(), 200);
  return { page, context, complaints, headers: response.headers() };
}

/** The page boxes of a PDF: each page's MediaBox in points. */
function mediaBoxes(pdf: Buffer): number[][] {
  const text = pdf.toString('latin1');
  const pages = text.split(/\/Type\s*\/Page(?![s\w])/).slice(1);
  return pages.map((page) => {
    const box = /\/MediaBox\s*\[\s*([\d.\s-]+)\]/.exec(page) ?? /\/MediaBox\s*\[\s*([\d.\s-]+)\]/.exec(text);
    assert.ok(box, 'a page without a MediaBox');
    return box[1].trim().split(/\s+/).map(Number);
  });
}

test('the label prints on one page of 62×29 mm, with the QR code, material, swatch, weight and short id', async () => {
  const { page, context, complaints, headers } = await openLabel(3);
  try {
    assert.equal(headers['content-type'], 'text/html; charset=utf-8');
    assert.match(headers['content-security-policy'], /img-src 'self' data:/);
    assert.equal(headers['x-frame-options'], 'DENY');
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    const boxes = mediaBoxes(pdf);
    assert.equal(boxes.length, 1, 'one page');
    const [x0, y0, x1, y1] = boxes[0];
    assert.ok(Math.abs((x1 - x0) / MM_IN_PT - 62) < 0.5, `width ${(x1 - x0) / MM_IN_PT} mm`);
    assert.ok(Math.abs((y1 - y0) / MM_IN_PT - 29) < 0.5, `height ${(y1 - y0) / MM_IN_PT} mm`);

    const shown = (await page.evaluate(`(() => {
      const qr = document.querySelector('img.qr');
      return {
        qr: [qr.complete, qr.naturalWidth, qr.naturalHeight],
        swatch: getComputedStyle(document.querySelector('.swatch')).backgroundColor,
        text: document.body.innerText,
        overflows: document.documentElement.scrollHeight > document.documentElement.clientHeight + 1,
      };
    })()`)) as { qr: unknown[]; swatch: string; text: string; overflows: boolean };
    assert.deepEqual(shown.qr, [true, 256, 256], 'the data: URL image is allowed and loads');
    assert.equal(shown.swatch, 'rgb(255, 136, 0)');
    assert.match(shown.text, /PETG/);
    assert.match(shown.text, /Prusament · Galaxy Black/);
    assert.match(shown.text, /750 g of 1000 g/);
    assert.match(shown.text, /K7Q2/);
    assert.equal(shown.overflows, false, 'nothing spills off the label');
    assert.deepEqual(complaints, [], 'no CSP violation or script error');
  } finally {
    await context.close();
  }
});

test('text the owner typed is escaped, and a colour that is not #rrggbb never reaches the style', async () => {
  const { page, context, complaints } = await openLabel(4);
  try {
    const html = await page.content();
    assert.doesNotMatch(html, /<img src=x/);
    assert.doesNotMatch(html, /evil/);
    const shown = await page.evaluate(`({
      images: document.images.length,
      material: document.querySelector('.material span:last-child').textContent,
      shortId: document.querySelector('.short-id').textContent,
      unknownSwatch: document.querySelector('.swatch.unknown') !== null,
    })`);
    assert.deepEqual(shown, { images: 1, material: hostile, shortId: 'X<1>', unknownSwatch: true });
    assert.deepEqual(complaints, []);
  } finally {
    await context.close();
  }
});

test('a multi-colour spool gets a striped swatch; the expiry date is printed', async () => {
  const { page, context } = await openLabel(5);
  try {
    const shown = (await page.evaluate(`({
      swatch: getComputedStyle(document.querySelector('.swatch')).backgroundImage,
      text: document.body.innerText,
    })`)) as { swatch: string; text: string };
    assert.match(shown.swatch, /linear-gradient.*rgb\(255, 0, 0\).*rgb\(0, 255, 0\).*rgb\(0, 0, 255\)/);
    assert.match(shown.text, /exp\. 2027-03-01/);
  } finally {
    await context.close();
  }
});

test('the label: an unknown spool is 404, a bad id 400, no credential 401', async () => {
  expectError(await dash.request('get', '/api/inventory/spools/99/label', { token: TEST_TOKENS.view }), 404, 'ERR_NOT_FOUND');
  expectError(await dash.request('get', '/api/inventory/spools/x/label', { token: TEST_TOKENS.view }), 400, 'ERR_VALIDATION');
  expectError(await dash.request('get', '/api/inventory/spools/3/label'), 401, 'ERR_UNAUTHORIZED');
});

test('a label link opens the label without credentials, with its own style, for that one spool only', async () => {
  const issued = await dash.request('POST', '/api/inventory/spools/3/label-link', { token: TEST_TOKENS.view });
  assert.equal(issued.status, 200, issued.text);
  assert.match(issued.json.url, /^\/api\/inventory\/labels\/3\.\d+\.[\w-]+$/);
  assert.ok(Date.parse(issued.json.expires_at) - Date.now() > 60_000);
  const context = await browser.newContext();
  await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  try {
    const page = await context.newPage();
    const complaints: string[] = [];
    page.on('console', (message) => complaints.push(message.text()));
    const response = await page.goto(`${dash.url}${issued.json.url}`);
    assert.equal(response?.status(), 200);
    const swatch = await page.evaluate(`getComputedStyle(document.querySelector('.swatch')).backgroundColor`);
    assert.equal(swatch, 'rgb(255, 136, 0)', 'the inline style applies');
    assert.deepEqual(complaints, []);
  } finally {
    await context.close();
  }
  const [, expires, signature] = issued.json.url.split('/').pop().split('.');
  for (const forged of [`4.${expires}.${signature}`, `3.${Number(expires) + 1}.${signature}`, '3', 'x.y.z']) {
    expectError(await dash.request('GET', `/api/inventory/labels/${forged}`), 404, 'ERR_NOT_FOUND', /not valid or has expired/);
  }
  expectError(await dash.request('POST', '/api/inventory/spools/3/label-link'), 401, 'ERR_UNAUTHORIZED');
  expectError(await dash.request('POST', '/api/inventory/spools/999/label-link', { token: TEST_TOKENS.view }), 404, 'ERR_NOT_FOUND');
});
