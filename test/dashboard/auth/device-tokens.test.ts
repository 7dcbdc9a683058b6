import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { DEVICE_TOKEN_LIFETIME_S, DeviceTokens } from '../../../appliance/dashboard/auth/device-tokens.js';
import { hashPassword } from '../../../appliance/dashboard/auth/password.js';
import { TokenIssuer } from '../../../appliance/dashboard/auth/tokens.js';
import type { UserRecord } from '../../../appliance/dashboard/auth/users.js';

async function user(id: string, password = 'some-password'): Promise<UserRecord> {
  const now = new Date().toISOString();
  return { id, username: id, role: 'admin', password: await hashPassword(password), created_at: now, updated_at: now };
}

test('a device token vouches for its user until it expires, and for nobody else', async () => {
  let nowMs = Date.UTC(2025, 0, 1);
  const secret = randomBytes(32);
  const devices = new DeviceTokens(secret, () => nowMs);
  const alice = await user('alice');
  const token = await devices.issue(alice);
  assert.equal(await devices.vouchesFor(token, alice), true);
  assert.equal(await devices.vouchesFor(token, await user('bob')), false);
  assert.equal(await devices.vouchesFor(token, undefined), false);
  assert.equal(await devices.vouchesFor(undefined, alice), false);
  assert.equal(await devices.vouchesFor('not a token', alice), false);
  assert.equal(await new DeviceTokens(randomBytes(32), () => nowMs).vouchesFor(token, alice), false, 'another signing key');
  nowMs += (DEVICE_TOKEN_LIFETIME_S - 1) * 1000;
  assert.equal(await devices.vouchesFor(token, alice), true);
  nowMs += 2000;
  assert.equal(await devices.vouchesFor(token, alice), false, 'expired');
});

test('a new password retires the device tokens of the old one', async () => {
  const devices = new DeviceTokens(randomBytes(32));
  const alice = await user('alice');
  const token = await devices.issue(alice);
  alice.password = await hashPassword('some-password');
  assert.equal(await devices.vouchesFor(token, alice), false, 'even the same password hashed again');
});

test('device tokens and session tokens signed from one secret are never taken for each other', async () => {
  const secret = randomBytes(32);
  const devices = new DeviceTokens(secret);
  const sessions = new TokenIssuer(secret);
  const alice = await user('alice');
  assert.equal(await sessions.verify(await devices.issue(alice)), null);
  assert.equal(await devices.vouchesFor((await sessions.issue('alice', 'admin', 3600)).token, alice), false);
});
