/**
 * Chromium for the web app's tests (launched by test/fixtures/chromium.ts),
 * an axe-core check that runs inside the page, screenshots saved under test-artifacts/web/, and a
 * record of what the page reported (console errors, failed requests, CSP refusals).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Gitignored; the screenshots are the test's artefacts, for people to look at. */
export const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/web/', import.meta.url));

export { launchChromium } from '../../fixtures/chromium.js';

/** What a page said that a working page never says. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    // A refused API call (a wrong password) is the page working; failed files are caught below.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && !new URL(response.url()).pathname.startsWith('/api/')) problems.push(`${response.status()} ${response.url()}`);
  });
  return problems;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script is evaluated
 * through the DevTools protocol, which the page's CSP does not govern (an inline <script> would be
 * refused, as it should be).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<any> } }).axe;
    const result = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: any) => n.html) }));
  });
  return (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Waits until the page's address matches (the app moves with the History API, which is no page load). */
export async function waitForPath(page: Page, expected: RegExp, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!expected.test(new URL(page.url()).pathname + new URL(page.url()).search)) {
    if (Date.now() > deadline) throw new Error(`the page stayed at ${page.url()}, not ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The page's serious and critical accessibility problems at both widths (none allowed), and its screenshots. */
export async function checkPage(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${name}: ${JSON.stringify(violations, null, 2)}`);
  await screenshot(page, `${name}-1280x800`);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-390x844`);
  assert.deepEqual(await axeViolations(page), [], `${name} at phone width`);
  await page.setViewportSize(DESKTOP);
}

export interface SignedInPage {
  page: Page;
  /** Console errors, page errors and failed file loads so far (a working page has none). */
  problems: string[];
  token: string;
}

/**
 * A new page logged in as `who` (an account that exists; the login goes through the API, as the
 * login page's own test covers the form) and opened at `path`. `options` sets the colour scheme and
 * the size.
 */
export async function openSignedIn(
  browser: Browser,
  baseUrl: string,
  who: { username: string; password: string },
  path: string,
  options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<SignedInPage> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const body = await response.text();
  assert.equal(response.status, 200, `login of ${who.username}: ${body}`);
  const { token } = JSON.parse(body) as { token: string };
  const me = (await (await fetch(`${baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { role: string };
  const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP, colorScheme: options.colorScheme ?? 'light' });
  await context.addInitScript(
    ([key, value]) => {
      // Runs in the page: a later logout or login of the test is kept across reloads.
      const storage = (globalThis as unknown as { localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void } })
        .localStorage;
      if (storage.getItem(key) === null) storage.setItem(key, value);
    },
    ['printyard.session', JSON.stringify({ token, username: who.username, role: me.role })],
  );
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${baseUrl}${path}`);
  return { page, problems, token };
}
