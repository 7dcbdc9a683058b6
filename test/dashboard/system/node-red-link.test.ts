/** Where the settings page sends admins for the Node-RED editor: the setting, else the request's host on port 1880. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeRedUrl } from '../../../appliance/dashboard/system/node-red-link.js';

test('without the setting: the host the browser reached the dashboard by, on port 1880', () => {
  assert.equal(nodeRedUrl('', 'printyard.local:3000'), 'http://printyard.local:1880');
  assert.equal(nodeRedUrl('  ', '192.168.1.20'), 'http://192.168.1.20:1880');
  assert.equal(nodeRedUrl('', '[fe80::1]:3000'), 'http://[fe80::1]:1880');
  assert.equal(nodeRedUrl('', undefined), null);
  assert.equal(nodeRedUrl('', 'bad host/with path'), null);
});

test('the setting wins, without a trailing slash; anything but http(s) gives no link', () => {
  assert.equal(nodeRedUrl('https://farm.example/node-red/', 'printyard.local:3000'), 'https://farm.example/node-red');
  assert.equal(nodeRedUrl('http://10.0.0.5:1881', undefined), 'http://10.0.0.5:1881');
  assert.equal(nodeRedUrl('ftp://10.0.0.5', 'x'), null);
  assert.equal(nodeRedUrl('not a url', 'x'), null);
});
