import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultFirmwareSettings, uuidFor } from '../../../../scripts/simulators/marlin/firmware-settings.js';

test('settings no build could have are refused with the name of the setting', () => {
  assert.equal(defaultFirmwareSettings({ extruders: 2 }).extruders, 2);
  assert.throws(() => defaultFirmwareSettings({ extruders: 0 }), /extruders must be a whole number from 1 to 8, got 0/);
  assert.throws(() => defaultFirmwareSettings({ extruders: 1.5 }), /extruders/);
  assert.throws(() => defaultFirmwareSettings({ bootMs: -1 }), /bootMs must be 0 or more/);
  assert.equal(defaultFirmwareSettings().temperatureNoise, 0);
  assert.throws(() => defaultFirmwareSettings({ temperatureNoise: -0.1 }), /temperatureNoise must be 0 or more/);
});

test('each simulated printer gets its own stable UUID', () => {
  const a = uuidFor('/tmp/marlin0/host');
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(uuidFor('/tmp/marlin0/host'), a);
  assert.notEqual(uuidFor('/tmp/marlin1/host'), a);
});
