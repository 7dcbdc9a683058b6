import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { probeHardware } from '../../../appliance/dashboard/system/hardware.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-hardware-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('GPIO chips and the systemd notify socket are found where they are', async () => {
  const dev = path.join(root, 'dev');
  mkdirSync(dev);
  for (const name of ['gpiochip1', 'gpiochip0', 'ttyUSB0']) writeFileSync(path.join(dev, name), '');
  const found = await probeHardware({ underSystemd: true, devDir: dev, gpioSysfsDir: path.join(root, 'no-sysfs') });
  assert.deepEqual(found.gpio, { available: true, chips: ['gpiochip0', 'gpiochip1'], sysfs: false });
  assert.deepEqual(found.systemd_notify, { available: true });
});

test('a machine without them says so', async () => {
  const found = await probeHardware({ underSystemd: false, devDir: path.join(root, 'missing'), gpioSysfsDir: path.join(root, 'missing') });
  assert.deepEqual(found.gpio, { available: false, chips: [], sysfs: false });
  assert.deepEqual(found.systemd_notify, { available: false });
});
