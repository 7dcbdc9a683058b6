/**
 * Each level against each kind of credentials, over real HTTP: one route per level (view:
 * GET /api/auth/me, print: a route of a test-only feature, admin: GET /api/users), called
 * without credentials, with a session token of each role and with an API key of each role.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DashboardFeature } from '../../../appliance/dashboard/feature.js';
import { ROLES, type Level, type Role } from '../../../appliance/dashboard/http/route.js';
import { startDashboardFixture, testAuthenticator, TEST_TOKENS, type DashboardFixture, type RequestOptions } from '../../fixtures/dashboard.js';
import { createApiKey, loginAs } from '../../fixtures/dashboard-auth.js';
import { authFeature } from '../../../appliance/dashboard/features.js';

const printProbe: DashboardFeature = {
  name: 'print_probe',
  routes: [
    {
      method: 'post',
      path: '/api/test/print-probe',
      level: 'print',
      tag: 'test',
      summary: 'A print-level route for the level tests',
      responses: { 200: { description: 'ok', schema: { type: 'object' } } },
      handler: ({ principal }) => ({ role: principal?.role }),
    },
  ],
};

const ROUTES: Record<Exclude<Level, 'public'>, [string, string]> = {
  view: ['GET', '/api/auth/me'],
  print: ['POST', '/api/test/print-probe'],
  admin: ['GET', '/api/users'],
};

let dash: DashboardFixture;
const credentials = new Map<string, RequestOptions>();

before(async () => {
  dash = await startDashboardFixture({ features: [authFeature, () => printProbe] });
  for (const role of ROLES) {
    credentials.set(`token:${role}`, { token: await loginAs(dash, role) });
    credentials.set(`key:${role}`, { apiKey: (await createApiKey(dash, role)).key });
  }
});
after(() => dash.cleanup());

function allowed(role: Role, level: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(level);
}

test('without credentials every non-public route answers 401', async () => {
  for (const [method, path] of Object.values(ROUTES)) {
    const response = await dash.request(method, path);
    assert.equal(response.status, 401, `${method} ${path}`);
    assert.equal(response.json.code, 'ERR_UNAUTHORIZED');
  }
});

for (const kind of ['token', 'key'] as const) {
  test(`${kind === 'token' ? 'session tokens' : 'API keys'}: each role gets 200 at or below its level and 403 above`, async () => {
    const table: string[] = [];
    for (const role of ROLES) {
      for (const [level, [method, path]] of Object.entries(ROUTES) as [Role, [string, string]][]) {
        const response = await dash.request(method, path, credentials.get(`${kind}:${role}`));
        const expected = allowed(role, level) ? 200 : 403;
        table.push(`${role}→${level}: ${response.status}`);
        assert.equal(response.status, expected, `${kind} ${role} on ${level} (${method} ${path}): ${response.text}`);
        if (expected === 403) assert.equal(response.json.code, 'ERR_FORBIDDEN');
      }
    }
    assert.equal(table.length, 9);
  });
}

test('composed with another authenticator, the feature has no routes to offer', async () => {
  const other = await startDashboardFixture({ features: [authFeature], createAuthenticator: testAuthenticator });
  try {
    assert.equal((await other.request('POST', '/api/auth/login', { body: { username: 'a', password: 'b' } })).status, 404);
    assert.equal((await other.request('GET', '/api/users', { token: TEST_TOKENS.admin })).status, 404);
    assert.match(other.logs(), /user and API key routes are left out/);
  } finally {
    await other.cleanup();
  }
});
