import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeAddress } from '../../../appliance/dashboard/http/client-address.js';

test('IPv4-mapped IPv6 addresses become IPv4, in any spelling', () => {
  assert.equal(normalizeAddress('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1');
  assert.equal(normalizeAddress('::ffff:192.168.1.20'), '192.168.1.20');
  assert.equal(normalizeAddress('::FFFF:c0a8:0114'), '192.168.1.20');
});

test('other addresses keep one canonical form', () => {
  assert.equal(normalizeAddress('10.0.0.7'), '10.0.0.7');
  assert.equal(normalizeAddress('::1'), '0:0:0:0:0:0:0:1');
  assert.equal(normalizeAddress('0000:0000:0000:0000:0000:0000:0000:0001'), '0:0:0:0:0:0:0:1');
  assert.equal(normalizeAddress('FE80::1'), 'fe80:0:0:0:0:0:0:1');
});
