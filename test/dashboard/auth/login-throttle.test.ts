import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOGIN_THROTTLE_DEFAULTS, LoginThrottle } from '../../../appliance/dashboard/auth/login-throttle.js';

function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
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
  assert.deepEqual(throttle.tracked, { users: 100, addresses: 100, accounts: 100 });
});

test('ten failures for one username from ten addresses lock the account, not the addresses', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now });
  for (let i = 0; i < 9; i++) assert.equal(throttle.failed('Alice', `10.0.1.${i}`), false);
  assert.equal(throttle.accountRetryAfterMs('alice'), 0, 'nine failures are free');
  assert.equal(throttle.failed('alice', '10.0.1.9'), true, 'the tenth sets off the first lock');
  assert.equal(throttle.accountRetryAfterMs('ALICE'), 1000);
  assert.equal(throttle.retryAfterMs('alice', '10.0.1.10'), 0, 'a fresh address has no lock of its own');
  assert.equal(throttle.accountRetryAfterMs('bob'), 0, 'other accounts are free');
  c.advance(1000);
  assert.equal(throttle.failed('alice', '10.0.1.10'), false, 'only the first lock says so');
  assert.equal(throttle.accountRetryAfterMs('alice'), 2000);
});

test('the account lock doubles up to 5 minutes, is not cleared by a success and is forgotten after a quiet hour', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now });
  for (let i = 0; i < 30; i++) {
    throttle.failed('alice', `10.0.2.${i}`);
    c.advance(throttle.accountRetryAfterMs('alice'));
  }
  throttle.failed('alice', '10.0.3.1');
  assert.equal(throttle.accountRetryAfterMs('alice'), LOGIN_THROTTLE_DEFAULTS.accountMaxLockMs);
  assert.equal(LOGIN_THROTTLE_DEFAULTS.accountMaxLockMs, 5 * 60_000);
  throttle.succeeded('alice', '10.0.3.1');
  assert.equal(throttle.accountRetryAfterMs('alice'), 5 * 60_000, 'a success from one address does not launder the others');
  c.advance(LOGIN_THROTTLE_DEFAULTS.forgetAfterMs);
  assert.equal(throttle.accountRetryAfterMs('alice'), 0);
  assert.equal(throttle.failed('alice', '10.0.3.2'), false, 'counting starts again');
});

test('password checks under way take up the account allowance, so a parallel burst cannot pass it', () => {
  const c = clock();
  const throttle = new LoginThrottle({ now: c.now });
  for (let i = 0; i < 8; i++) throttle.failed('alice', `10.0.4.${i}`);
  const first = throttle.checking('alice');
  assert.equal(throttle.accountRetryAfterMs('alice'), 0, 'the ninth check may run');
  const second = throttle.checking('alice');
  assert.equal(throttle.accountRetryAfterMs('alice'), 1000, 'a tenth would pass before the others fail');
  assert.equal(throttle.accountRetryAfterMs('bob'), 0);
  first();
  first();
  assert.equal(throttle.accountRetryAfterMs('alice'), 0, 'ending a check twice counts once');
  second();
  assert.equal(throttle.accountRetryAfterMs('alice'), 0);
});
