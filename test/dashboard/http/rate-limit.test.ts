import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RateLimiter } from '../../../appliance/dashboard/http/rate-limit.js';
import type { DashboardFeature } from '../../../appliance/dashboard/feature.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('RateLimiter', () => {
  test('allows the burst, then says how long to wait for the second to pass', () => {
    const c = clock();
    const limiter = new RateLimiter({ enabled: true, perMinute: 100, perSecond: 3 }, c.now);
    for (let k = 0; k < 3; k++) {
      assert.deepEqual(limiter.take('a'), { allowed: true });
      c.advance(100);
    }
    assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterS: 1 });
    c.advance(699);
    assert.equal(limiter.take('a').allowed, false);
    c.advance(1);
    assert.deepEqual(limiter.take('a'), { allowed: true });
  });

  test('the minute window slides and Retry-After counts whole seconds up', () => {
    const c = clock();
    const limiter = new RateLimiter({ enabled: true, perMinute: 4, perSecond: 10 }, c.now);
    for (let k = 0; k < 4; k++) {
      assert.equal(limiter.take('a').allowed, true);
      c.advance(10_000);
    }
    // The first request was 40 s ago: 20 s to go.
    assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterS: 20 });
    c.advance(19_500);
    assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterS: 1 });
    c.advance(500);
    assert.equal(limiter.take('a').allowed, true);
    // Refused requests are not counted: the next slot frees when the second request turns a minute old.
    assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterS: 10 });
  });

  test('clients are counted apart', () => {
    const c = clock();
    const limiter = new RateLimiter({ enabled: true, perMinute: 1, perSecond: 1 }, c.now);
    assert.equal(limiter.take('a').allowed, true);
    assert.equal(limiter.take('a').allowed, false);
    assert.equal(limiter.take('b').allowed, true);
  });

  test('disabled allows everything; new limits apply at once', () => {
    const c = clock();
    const limiter = new RateLimiter({ enabled: false, perMinute: 1, perSecond: 1 }, c.now);
    for (let k = 0; k < 10; k++) assert.equal(limiter.take('a').allowed, true);
    limiter.configure({ enabled: true, perMinute: 2, perSecond: 2 });
    assert.equal(limiter.take('a').allowed, true);
    assert.equal(limiter.take('a').allowed, true);
    assert.equal(limiter.take('a').allowed, false);
  });

  test('memory stays bounded: the least recently seen client is evicted, idle ones are swept', () => {
    const c = clock();
    const limiter = new RateLimiter({ enabled: true, perMinute: 1, perSecond: 1 }, c.now, 3);
    for (const client of ['a', 'b', 'c']) assert.equal(limiter.take(client).allowed, true);
    assert.equal(limiter.take('a').allowed, false);
    assert.equal(limiter.take('d').allowed, true);
    assert.equal(limiter.size, 3);
    // b was the least recently seen: it was forgotten, so it may send again.
    assert.equal(limiter.take('b').allowed, true);
    assert.equal(limiter.take('a').allowed, false);
    c.advance(61_000);
    limiter.take('x');
    limiter.sweep();
    assert.equal(limiter.size, 1);
  });
});

describe('rate limit over HTTP', () => {
  let dash: DashboardFixture;
  const routes: DashboardFeature['routes'] = [
    {
      method: 'get',
      path: '/api/test/ping',
      level: 'view',
      tag: 'test',
      summary: 'ping',
      responses: { 200: { description: 'pong' } },
      handler: () => ({ pong: true }),
    },
    {
      method: 'get',
      path: '/api/test/open',
      level: 'public',
      tag: 'test',
      summary: 'open',
      responses: { 200: { description: 'open' } },
      handler: () => ({ open: true }),
    },
  ];
  before(async () => {
    dash = await startDashboardFixture({
      createAuthenticator: testAuthenticator,
      features: [() => ({ name: 'test', routes })],
      config: { rate_limit: { per_minute: 4, per_second: 100 } },
    });
  });
  after(async () => dash.cleanup());

  test('health is not counted, the fifth request in a minute is a 429 with Retry-After', async () => {
    for (let k = 0; k < 10; k++) assert.equal((await dash.request('GET', '/api/health')).status, 200);
    for (let k = 0; k < 4; k++) assert.equal((await dash.request('GET', '/api/test/ping', { token: TEST_TOKENS.view })).status, 200);
    const refused = await dash.request('GET', '/api/test/ping', { token: TEST_TOKENS.view });
    assert.equal(refused.status, 429);
    assert.equal(refused.json.code, 'ERR_RATE_LIMITED');
    const retry = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.equal((await dash.request('GET', '/api/health')).status, 200);
  });

  test('another principal, and anonymous callers by address, have their own count', async () => {
    assert.equal((await dash.request('GET', '/api/test/ping', { token: TEST_TOKENS.admin })).status, 200);
    for (let k = 0; k < 4; k++) assert.equal((await dash.request('GET', '/api/test/open')).status, 200);
    assert.equal((await dash.request('GET', '/api/test/open')).status, 429);
  });

  test('failed authentications count against the address', async () => {
    const res = await dash.request('GET', '/api/test/ping', { token: 'wrong' });
    assert.equal(res.status, 429);
  });

  test('changed settings apply at once', async () => {
    await dash.server.context.settings.update({ rate_limit: { per_minute: 1000 } });
    assert.equal((await dash.request('GET', '/api/test/ping', { token: TEST_TOKENS.view })).status, 200);
    await dash.server.context.settings.update({ rate_limit: { enabled: false, per_minute: 1 } });
    for (let k = 0; k < 3; k++) assert.equal((await dash.request('GET', '/api/test/open')).status, 200);
  });
});
