import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { AppError, ErrorCode } from '../../../appliance/common/errors.js';
import type { DashboardFeature } from '../../../appliance/dashboard/feature.js';
import { Reply, type Level, type RouteSpec } from '../../../appliance/dashboard/http/route.js';
import { readBody } from '../../../appliance/dashboard/http/body.js';
import { roleSatisfies } from '../../../appliance/dashboard/http/router.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

const ok = { 200: { description: 'OK' } };

function levelRoute(level: Level): RouteSpec {
  return {
    method: 'get',
    path: `/api/test/${level}`,
    level,
    tag: 'test',
    summary: level,
    responses: ok,
    handler: ({ principal }) => ({ level, who: principal?.name ?? null }),
  };
}

const routes: RouteSpec[] = [
  levelRoute('public'),
  levelRoute('view'),
  levelRoute('print'),
  levelRoute('admin'),
  {
    method: 'post',
    path: '/api/test/echo',
    level: 'view',
    tag: 'test',
    summary: 'echo',
    responses: ok,
    body: {
      kind: 'json',
      maxBytes: 1024,
      schema: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1 }, count: { type: 'integer', minimum: 1 } },
      },
    },
    handler: ({ body }) => ({ got: body }),
  },
  {
    method: 'get',
    path: '/api/test/items/:id',
    level: 'view',
    tag: 'test',
    summary: 'item',
    responses: ok,
    params: { id: { type: 'string', pattern: '^[a-z-]+$' } },
    query: { limit: { type: 'integer', minimum: 1, maximum: 50 }, sort: { type: 'string', enum: ['name', 'date'], required: true } },
    handler: ({ params, query }) => ({ params, query }),
  },
  {
    method: 'post',
    path: '/api/test/raw',
    level: 'view',
    tag: 'test',
    summary: 'raw',
    responses: ok,
    body: { kind: 'raw', contentType: 'text/plain', maxBytes: 100 },
    handler: async ({ req }) => ({ bytes: (await readBody(req, 100)).length }),
  },
  {
    method: 'delete',
    path: '/api/test/thing',
    level: 'view',
    tag: 'test',
    summary: 'nothing',
    responses: { 204: { description: 'gone' } },
    handler: () => undefined,
  },
  {
    method: 'post',
    path: '/api/test/created',
    level: 'view',
    tag: 'test',
    summary: 'created',
    responses: { 201: { description: 'made' } },
    handler: () => new Reply(201, { id: 'x1' }, { location: '/api/test/items/x1' }),
  },
  {
    method: 'get',
    path: '/api/test/conflict',
    level: 'view',
    tag: 'test',
    summary: 'conflict',
    responses: ok,
    handler: () => {
      throw new AppError(ErrorCode.conflict, 409, 'already there');
    },
  },
  {
    method: 'get',
    path: '/api/test/bug',
    level: 'view',
    tag: 'test',
    summary: 'bug',
    responses: ok,
    handler: () => {
      throw new TypeError('secret internals');
    },
  },
  {
    method: 'get',
    path: '/api/test/stream',
    level: 'view',
    tag: 'test',
    summary: 'writes itself',
    responses: ok,
    handler: ({ res }) => {
      res.header('content-type', 'text/plain').send('written by the handler');
    },
  },
];

const testFeature = (): DashboardFeature => ({ name: 'test', routes });

let dash: DashboardFixture;
before(async () => {
  dash = await startDashboardFixture({ createAuthenticator: testAuthenticator, features: [testFeature], config: { rate_limit: { enabled: false } } });
});
after(async () => dash.cleanup());

describe('levels', () => {
  test('roles include the rights of the weaker ones', () => {
    assert.equal(roleSatisfies('admin', 'print'), true);
    assert.equal(roleSatisfies('print', 'print'), true);
    assert.equal(roleSatisfies('view', 'print'), false);
    assert.equal(roleSatisfies('view', 'public'), true);
  });

  const tokenOf: Record<string, string | undefined> = { none: undefined, bad: 'not-a-token', ...TEST_TOKENS };
  const expected: Record<Level, Record<string, number>> = {
    public: { none: 200, bad: 200, view: 200, print: 200, admin: 200 },
    view: { none: 401, bad: 401, view: 200, print: 200, admin: 200 },
    print: { none: 401, bad: 401, view: 403, print: 200, admin: 200 },
    admin: { none: 401, bad: 401, view: 403, print: 403, admin: 200 },
  };
  for (const [level, byCaller] of Object.entries(expected)) {
    for (const [caller, status] of Object.entries(byCaller)) {
      test(`${caller} credentials on a ${level} route → ${status}`, async () => {
        const res = await dash.request('GET', `/api/test/${level}`, { token: tokenOf[caller] });
        assert.equal(res.status, status, res.text);
        if (status === 401) assert.equal(res.json.code, 'ERR_UNAUTHORIZED');
        if (status === 403) {
          assert.equal(res.json.code, 'ERR_FORBIDDEN');
          assert.match(res.json.error, new RegExp(`needs the ${level} level`));
        }
        if (status === 200) assert.equal(res.json.who, level === 'public' ? null : caller);
      });
    }
  }
});

describe('JSON bodies', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    dash.request('POST', '/api/test/echo', { token: TEST_TOKENS.view, body, headers: { 'content-type': 'application/json', ...headers } });

  test('a valid body reaches the handler parsed', async () => {
    const res = await post({ name: 'benchy', count: 2 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { got: { name: 'benchy', count: 2 } });
  });

  test('malformed JSON is a 400 ERR_VALIDATION', async () => {
    const res = await post('{"name": ');
    assert.equal(res.status, 400);
    assert.equal(res.json.code, 'ERR_VALIDATION');
    assert.match(res.json.error, /^body is not valid JSON/);
    assert.equal(res.json.details[0].path, 'body');
  });

  test('an empty body is a 400 naming the body', async () => {
    const res = await post('');
    assert.equal(res.status, 400);
    assert.deepEqual(res.json.details, [{ path: 'body', message: 'is required (a JSON document)' }]);
  });

  test('schema violations list every bad field in details', async () => {
    const res = await post({ count: 0, colour: 'red' });
    assert.equal(res.status, 400);
    assert.equal(res.json.code, 'ERR_VALIDATION');
    assert.deepEqual(res.json.details, [
      { path: 'body/name', message: 'is required' },
      { path: 'body/count', message: 'must be at least 1' },
      { path: 'body/colour', message: 'is not an allowed property' },
    ]);
    assert.match(res.json.error, /body\/name is required/);
  });

  test('a body of the wrong type says what it must be', async () => {
    const res = await post([1, 2]);
    assert.deepEqual(res.json.details, [{ path: 'body', message: 'must be an object' }]);
  });

  test('a body over the route limit is a 413 in the error shape', async () => {
    const res = await post({ name: 'x'.repeat(2000) });
    assert.equal(res.status, 413);
    assert.equal(res.json.code, 'ERR_PAYLOAD_TOO_LARGE');
    assert.match(res.json.error, /1 KB/);
  });

  test('a chunked body over the limit is a 413 too', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${dash.url}/api/test/echo`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_TOKENS.view}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (t: string) => {
              text += t;
            })
            .on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      for (let k = 0; k < 8; k++) req.write(`{"name": "${'y'.repeat(400)}`);
      req.end('"}');
    });
    assert.equal(status, 413);
    assert.equal(JSON.parse(body).code, 'ERR_PAYLOAD_TOO_LARGE');
  });

  test('raw bodies are left to the handler, within the route limit', async () => {
    const small = await dash.request('POST', '/api/test/raw', { token: TEST_TOKENS.view, body: 'x'.repeat(50) });
    assert.deepEqual(small.json, { bytes: 50 });
    const large = await dash.request('POST', '/api/test/raw', { token: TEST_TOKENS.view, body: 'x'.repeat(200) });
    assert.equal(large.status, 413);
    assert.equal(large.json.code, 'ERR_PAYLOAD_TOO_LARGE');
  });

  test('a body sent to a route that takes none is ignored', async () => {
    const res = await dash.request('DELETE', '/api/test/thing', { token: TEST_TOKENS.view, body: { ignored: true } });
    assert.equal(res.status, 204);
  });

  test('a body nesting deeper than 64 levels is a 400 naming the limit, not a stack overflow', async () => {
    const res = await post(`{"name":"x","count":${'['.repeat(400)}${']'.repeat(400)}}`);
    assert.equal(res.status, 400);
    assert.deepEqual(res.json.details, [{ path: 'body', message: 'nests objects and arrays more than 64 levels deep' }]);
    assert.equal((await dash.request('GET', '/api/health')).status, 200);
  });

  test('a non-JSON content type is refused', async () => {
    const res = await post('name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(res.status, 400);
    assert.match(res.json.error, /application\/json/);
  });
});

describe('parameters', () => {
  test('path and query parameters reach the handler as text', async () => {
    const res = await dash.request('GET', '/api/test/items/big-cube?limit=5&sort=name', { token: TEST_TOKENS.view });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { params: { id: 'big-cube' }, query: { limit: '5', sort: 'name' } });
  });

  test('bad path and query parameters are named', async () => {
    const res = await dash.request('GET', '/api/test/items/Big1?limit=0&extra=1', { token: TEST_TOKENS.view });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json.details, [
      { path: 'path/id', message: 'must match the pattern ^[a-z-]+$' },
      { path: 'query/extra', message: 'is not a parameter of this endpoint' },
      { path: 'query/limit', message: 'must be at least 1' },
      { path: 'query/sort', message: 'is required' },
    ]);
  });

  test('a query parameter that is not a number where an integer is expected', async () => {
    const res = await dash.request('GET', '/api/test/items/a?limit=many&sort=date', { token: TEST_TOKENS.view });
    assert.deepEqual(res.json.details, [{ path: 'query/limit', message: 'must be an integer' }]);
  });

  test('a repeated query parameter is refused', async () => {
    const res = await dash.request('GET', '/api/test/items/a?sort=date&sort=name', { token: TEST_TOKENS.view });
    assert.deepEqual(res.json.details, [{ path: 'query/sort', message: 'is given more than once' }]);
  });

  test('percent-encoded path parameters are decoded', async () => {
    const res = await dash.request('GET', '/api/test/items/a%2Db?sort=date', { token: TEST_TOKENS.view });
    assert.equal(res.json.params.id, 'a-b');
  });
});

describe('replies', () => {
  test('undefined from a handler is a 204 without a body', async () => {
    const res = await dash.request('DELETE', '/api/test/thing', { token: TEST_TOKENS.view });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
  });

  test('a Reply sets status, headers and body', async () => {
    const res = await dash.request('POST', '/api/test/created', { token: TEST_TOKENS.view });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('location'), '/api/test/items/x1');
    assert.deepEqual(res.json, { id: 'x1' });
  });

  test('an AppError keeps its status and code', async () => {
    const res = await dash.request('GET', '/api/test/conflict', { token: TEST_TOKENS.view });
    assert.equal(res.status, 409);
    assert.deepEqual(res.json, { error: 'already there', code: 'ERR_CONFLICT' });
  });

  test('any other error is a 500 that hides the cause and logs it', async () => {
    const res = await dash.request('GET', '/api/test/bug', { token: TEST_TOKENS.view });
    assert.equal(res.status, 500);
    assert.deepEqual(res.json, { error: 'internal error', code: 'ERR_INTERNAL' });
    assert.match(dash.logs(), /TypeError: secret internals/);
  });

  test('a handler that wrote the response itself is left alone', async () => {
    const res = await dash.request('GET', '/api/test/stream', { token: TEST_TOKENS.view });
    assert.equal(res.status, 200);
    assert.equal(res.text, 'written by the handler');
  });

  test('unknown routes are a 404 in the error shape', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing-here'],
      ['POST', '/api/test/public'],
      ['GET', '/'],
    ]) {
      const res = await dash.request(method, path);
      assert.equal(res.status, 404);
      assert.deepEqual(res.json, { error: `no route ${method} ${path}`, code: 'ERR_NOT_FOUND' });
    }
  });
});

describe('registration', () => {
  test('the router lists what it registered', () => {
    const listed = dash.server.routes.map((r) => `${r.method} ${r.path}`);
    for (const route of routes) assert.ok(listed.includes(`${route.method} ${route.path}`));
  });

  test('a route registered twice, or with an unsupported schema keyword, refuses the start', async () => {
    const twice = (): DashboardFeature => ({ name: 'twice', routes: [levelRoute('view'), { ...levelRoute('view'), summary: 'again' }] });
    await assert.rejects(startDashboardFixture({ features: [twice] }), /registered twice/);
    const odd = (): DashboardFeature => ({
      name: 'odd',
      routes: [{ ...levelRoute('view'), params: {}, query: { q: { type: 'string', multipleOf: 2 } } }],
    });
    await assert.rejects(startDashboardFixture({ features: [odd] }), /keyword "multipleOf" is not supported/);
  });
});
