import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOGIN_THROTTLE_DEFAULTS, LoginThrottle } from '../../../appliance/dashboard/auth/login-throttle.js';

function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

test('five failures for one username and address lock them for 1 s, then 2 s, 4 s…', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now });
  for (let i = 0; i < 4; i++) {
    throttle.failed('alice', '10.0.0.1');
    assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), 0, `free failure ${i + 1}`);
  }
  throttle.failed('alice', '10.0.0.1');
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), 1000);
  c.advance(400);
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), 600);
  c.advance(600);
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), 0);
  throttle.failed('alice', '10.0.0.1');
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), 2000);
  c.advance(2000);
  throttle.failed('alice', '10.0.0.1');
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), 4000);
});

test('the lock is per username (any case) and address: others are not held up', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now });
  for (let i = 0; i < 5; i++) throttle.failed('Alice', '10.0.0.1');
  assert.equal(throttle.retryAfterMs('ALICE', '10.0.0.1'), 1000);
  assert.equal(throttle.retryAfterMs('bob', '10.0.0.1'), 0);
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.2'), 0);
});

test('the window is capped at 15 minutes', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now, addressFreeFailures: 1000 });
  for (let i = 0; i < 40; i++) {
    throttle.failed('alice', '10.0.0.1');
    c.advance(throttle.retryAfterMs('alice', '10.0.0.1'));
  }
  throttle.failed('alice', '10.0.0.1');
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), LOGIN_THROTTLE_DEFAULTS.maxLockMs);
  assert.equal(LOGIN_THROTTLE_DEFAULTS.maxLockMs, 15 * 60_000);
});

test('a successful login clears its username and address', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now });
  for (let i = 0; i < 5; i++) throttle.failed('alice', '10.0.0.1');
  c.advance(1000);
  throttle.succeeded('alice', '10.0.0.1');
  throttle.failed('alice', '10.0.0.1');
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), 0, 'counting starts again');
});

test('failures over many usernames lock the address; a success elsewhere does not clear it', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now });
  for (let i = 0; i < 19; i++) throttle.failed(`user${i}`, '10.0.0.9');
  assert.equal(throttle.retryAfterMs('anyone', '10.0.0.9'), 0);
  throttle.failed('user19', '10.0.0.9');
  assert.equal(throttle.retryAfterMs('anyone', '10.0.0.9'), 1000);
  assert.equal(throttle.retryAfterMs('anyone', '10.0.0.10'), 0, 'other addresses are free');
  throttle.succeeded('mine', '10.0.0.9');
  assert.equal(throttle.retryAfterMs('anyone', '10.0.0.9'), 1000);
});

test('counts are forgotten after a quiet period and their number is bounded', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now, maxTracked: 100 });
  for (let i = 0; i < 4; i++) throttle.failed('alice', '10.0.0.1');
  c.advance(LOGIN_THROTTLE_DEFAULTS.forgetAfterMs);
  throttle.failed('alice', '10.0.0.1');
  assert.equal(throttle.retryAfterMs('alice', '10.0.0.1'), 0, 'the old failures were forgotten');

  for (let i = 0; i < 1000; i++) throttle.failed(`u${i}`, `10.1.${i >> 8}.${i & 255}`);
  assert.deepEqual(throttle.tracked, { users: 100, addresses: 100 });
});
