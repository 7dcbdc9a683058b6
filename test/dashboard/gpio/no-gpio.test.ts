/**
 * A box without GPIO (a PC, CI): the onoff chip finds no chip under the sysfs root, the dashboard
 * says so in /api/system/info and GET /api/hardware/gpio, a pin map is still stored (each pin
 * saying why it does not work), switching answers 503, and the printers and the queue run.
 * Then the same with gpio.json naming a printer that is gone: reported, not applied, no crash.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { gpioFeature, printersFeature, queueFeature } from '../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';

const noSysfs = mkdtempSync(path.join(os.tmpdir(), 'printyard-no-gpio-'));
after(() => rmSync(noSysfs, { recursive: true, force: true }));

test('no GPIO: reported, a pin map is kept, switching is 503, the rest works', async () => {
  const dash = await startDashboardFixture({
    config: { gpio: { type: 'onoff', sysfs_root: noSysfs } },
    createAuthenticator: testAuthenticator,
    features: [printersFeature, queueFeature, gpioFeature],
  });
  try {
    const info = (await dash.request('get', '/api/system/info', { token: TEST_TOKENS.view })).json;
    assert.deepEqual(info.features.find((f: any) => f.name === 'gpio')?.state, 'running');
    assert.equal(info.gpio.available, false);
    assert.match(info.gpio.problem, /no GPIO chips under .*printyard-no-gpio-/);
    assert.equal(info.hardware.gpio.available, false);

    const view = (await dash.request('get', '/api/hardware/gpio', { token: TEST_TOKENS.view })).json;
    assert.deepEqual(
      { available: view.available, type: view.type, chip: view.chip, led: view.led },
      { available: false, type: 'onoff', chip: null, led: null },
    );

    const created = await dash.request('post', '/api/printers', {
      token: TEST_TOKENS.admin,
      body: { name: 'P', type: 'marlin-serial', connection: { port: '/dev/ttyUSB7' } },
    });
    assert.equal(created.status, 201, created.text);
    const put = await dash.request('put', '/api/hardware/gpio/config', {
      token: TEST_TOKENS.admin,
      body: { pins: [{ pin: 17, role: 'power_relay', printer_id: created.json.id }] },
    });
    assert.equal(put.status, 200, put.text);
    const pin = (await dash.request('get', '/api/hardware/gpio', { token: TEST_TOKENS.view })).json.pins[0];
    assert.equal(pin.value, null);
    assert.match(pin.problem, /^no GPIO: no GPIO chips under/);
    expectError(await dash.request('post', '/api/hardware/gpio/17', { token: TEST_TOKENS.admin, body: { on: true } }), 503, 'ERR_UNAVAILABLE');
    assert.equal((await dash.request('get', '/api/queue', { token: TEST_TOKENS.view })).status, 200);
    assert.equal((await dash.request('get', '/api/printers', { token: TEST_TOKENS.view })).json.items.length, 1);
  } finally {
    await dash.cleanup();
  }
});

test('a stored pin map that no longer fits is reported and not applied; the dashboard runs', async () => {
  const dash = await startDashboardFixture({
    config: { gpio: { type: 'simulated' } },
    files: { 'gpio.json': JSON.stringify({ pins: [{ pin: 17, role: 'door', printer_id: 'deleted-printer' }] }) },
    createAuthenticator: testAuthenticator,
    features: [printersFeature, gpioFeature],
  });
  try {
    const view = (await dash.request('get', '/api/hardware/gpio', { token: TEST_TOKENS.view })).json;
    assert.equal(view.available, true);
    assert.equal(view.type, 'simulated');
    assert.deepEqual(view.pins, []);
    assert.match(view.problem, /gpio\.json: pins\/0\/printer_id \(GPIO 17, door\): printer_id "deleted-printer" is not a printer/);
  } finally {
    await dash.cleanup();
  }
});
