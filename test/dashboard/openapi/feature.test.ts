import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { PAGE_CSP } from '../../../appliance/common/security-headers.js';
import { openApiPath } from '../../../appliance/dashboard/openapi/document.js';
import { startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';

let dash: DashboardFixture;
// The executable's composition: every feature of features.ts is in the description.
before(async () => {
  dash = await startDashboardFixture();
});
after(async () => dash.cleanup());

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

test('the description lists exactly the registered routes', async () => {
  const res = await dash.request('GET', '/api/openapi.json');
  assert.equal(res.status, 200);
  const described = new Set<string>();
  for (const [path, item] of Object.entries(res.json.paths as Record<string, object>)) {
    for (const method of Object.keys(item)) if (METHODS.has(method)) described.add(`${method.toUpperCase()} ${path}`);
  }
  const registered = new Set(dash.server.routes.map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`));
  assert.ok(registered.size > 0);
  assert.deepEqual(
    [...registered].filter((r) => !described.has(r)),
    [],
    'registered but not described',
  );
  assert.deepEqual(
    [...described].filter((d) => !registered.has(d)),
    [],
    'described but not registered',
  );
  for (const route of ['GET /api/health', 'GET /api/system/info', 'GET /api/openapi.json', 'GET /api/docs', 'GET /api/docs/{file}']) {
    assert.ok(described.has(route), route);
  }
});

test('the served description passes the OpenAPI 3.1 validator', async () => {
  const res = await dash.request('GET', '/api/openapi.json');
  const validator = new Validator();
  const result = await validator.validate(res.json);
  assert.deepEqual(result.errors, undefined);
  assert.equal(result.valid, true);
  assert.equal(validator.version, '3.1');
});

test('the docs page is served locally and points at the description', async () => {
  const page = await dash.request('GET', '/api/docs');
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.doesNotMatch(page.text, /https?:\/\//, 'nothing is loaded from elsewhere');
  assert.doesNotMatch(page.text, /<script>/, 'no inline script: the page CSP allows none');
  assert.equal(page.headers.get('content-security-policy'), PAGE_CSP);
  const start = await fetch(`${dash.url}/api/docs/start-docs.js`);
  assert.match(start.headers.get('content-type') ?? '', /javascript/);
  assert.match(await start.text(), /url: '\/api\/openapi\.json'/);
  const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(assets.includes('/api/docs/swagger-ui-bundle.js'));
  for (const asset of assets) {
    const res = await fetch(dash.url + asset);
    assert.equal(res.status, 200, asset);
    assert.ok((await res.arrayBuffer()).byteLength > 0, asset);
  }
  const bundle = await fetch(`${dash.url}/api/docs/swagger-ui-bundle.js`);
  assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
  assert.match(await bundle.text(), /SwaggerUIBundle/);
});

test('files other than the page assets are not served', async () => {
  for (const name of ['package.json', '..%2Fpackage.json', 'index.html']) {
    const res = await dash.request('GET', `/api/docs/${name}`);
    assert.equal(res.status, 400, name);
    assert.equal(res.json.details[0].path, 'path/file');
  }
});
