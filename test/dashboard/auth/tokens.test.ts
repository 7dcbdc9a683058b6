import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { durationSeconds, TokenIssuer } from '../../../appliance/dashboard/auth/tokens.js';

const secret = new Uint8Array(32).fill(1);
const T0 = Date.UTC(2025, 0, 1);

test('durations read like the auth.token_expiry setting', () => {
  assert.equal(durationSeconds('24h'), 86_400);
  assert.equal(durationSeconds('30m'), 1800);
  assert.equal(durationSeconds('7d'), 604_800);
  assert.equal(durationSeconds('90 s'), 90);
  assert.equal(durationSeconds(' 1.5h '), 5400);
  assert.equal(durationSeconds('2 weeks'), 1_209_600);
  for (const bad of ['', '0s', '24', 'h', '-1h', '1 fortnight', '1h ago']) {
    assert.throws(() => durationSeconds(bad), /not a token lifetime/, bad);
  }
});

test('an issued token carries sub, role, a random jti, iat and exp', async () => {
  const issuer = new TokenIssuer(secret, () => T0);
  const a = await issuer.issue('user-1', 'print', 3600);
  const b = await issuer.issue('user-1', 'print', 3600);
  assert.notEqual(a.jti, b.jti);
  const claims = decodeJwt(a.token);
  assert.deepEqual(
    { sub: claims.sub, role: claims.role, jti: claims.jti, iat: claims.iat, exp: claims.exp },
    { sub: 'user-1', role: 'print', jti: a.jti, iat: T0 / 1000, exp: T0 / 1000 + 3600 },
  );
  assert.equal(a.exp, T0 / 1000 + 3600);
  assert.deepEqual(await issuer.verify(a.token), { sub: 'user-1', role: 'print', jti: a.jti, iat: T0 / 1000, exp: T0 / 1000 + 3600 });
});

test('a token is refused once it has expired', async () => {
  let now = T0;
  const issuer = new TokenIssuer(secret, () => now);
  const { token } = await issuer.issue('user-1', 'view', 60);
  now = T0 + 59_000;
  assert.notEqual(await issuer.verify(token), null);
  now = T0 + 61_000;
  assert.equal(await issuer.verify(token), null);
});

test('tokens signed with another key, altered, unsigned or malformed are refused', async () => {
  const issuer = new TokenIssuer(secret, () => T0);
  const other = new TokenIssuer(new Uint8Array(32).fill(2), () => T0);
  const { token } = await other.issue('user-1', 'admin', 60);
  assert.equal(await issuer.verify(token), null);

  const genuine = (await issuer.issue('user-1', 'view', 60)).token;
  const [header, , signature] = genuine.split('.');
  const forgedPayload = Buffer.from(JSON.stringify({ ...decodeJwt(genuine), sub: 'user-2' })).toString('base64url');
  assert.equal(await issuer.verify(`${header}.${forgedPayload}.${signature}`), null);

  const unsigned = new UnsecuredJWT({ role: 'admin' })
    .setSubject('user-1')
    .setJti('x')
    .setIssuedAt(T0 / 1000)
    .setExpirationTime(T0 / 1000 + 60)
    .encode();
  assert.equal(await issuer.verify(unsigned), null);
  for (const junk of ['', 'abc', 'a.b.c', 'pyk_nope']) assert.equal(await issuer.verify(junk), null, junk);
});

test('a token without a jti (one we did not issue) is refused', async () => {
  const issuer = new TokenIssuer(secret, () => T0);
  const token = await new SignJWT({ role: 'admin' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-1')
    .setIssuedAt(T0 / 1000)
    .setExpirationTime(T0 / 1000 + 60)
    .sign(secret);
  assert.equal(await issuer.verify(token), null);
});
