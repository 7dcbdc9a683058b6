import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCliOptions, parseSsdpTarget, printerSpecs } from '../../../../scripts/simulators/bambu/cli-options.js';

test('defaults describe one P1S on the real ports', () => {
  const specs = printerSpecs(loadCliOptions([], {}));
  assert.deepEqual(specs, [
    {
      serial: '01P00A123456789',
      accessCode: '12345678',
      model: 'P1S',
      mqttPort: 8883,
      ftpsPort: 990,
      ams: { units: 1 },
      faults: [],
    },
  ]);
});

test('--count numbers the serials and ports; free ports stay free', () => {
  const specs = printerSpecs(
    loadCliOptions(['--count', '3', '--serial', '00M09A000000998', '--model', 'X1C', '--ftps-port', '0', '--faults', 'busy, silentStream'], {}),
  );
  assert.deepEqual(
    specs.map((s) => [s.serial, s.mqttPort, s.ftpsPort, s.model]),
    [
      ['00M09A000000998', 8883, 0, 'X1C'],
      ['00M09A000000999', 8884, 0, 'X1C'],
      ['00M09A000000000', 8885, 0, 'X1C'],
    ],
  );
  assert.deepEqual(specs[0].faults, ['busy', 'silentStream']);
});

test('bad options are named', () => {
  assert.throws(() => printerSpecs(loadCliOptions(['--faults', 'busy,nope'], {})), /--faults: unknown fault "nope"/);
  assert.throws(() => printerSpecs(loadCliOptions(['--count', '2', '--serial', '01P00A12345678X'], {})), /three digits/);
  assert.throws(() => printerSpecs(loadCliOptions(['--count', '3', '--mqtt-port', '65534'], {})), /past 65535/);
  assert.throws(() => loadCliOptions(['--model', 'A1'], {}), /--model: expected one of P1S, X1C/);
  assert.throws(() => printerSpecs(loadCliOptions(['--serial', '01p00a123456789'], {})), /serial "01p00a123456789": expected 15 upper-case/);
  assert.throws(() => loadCliOptions(['--time-scale', '0'], {}), /--time-scale/);
  assert.equal(loadCliOptions([], { PRINTYARD_SIM_BAMBU_TIME_SCALE: '20' }).time_scale, 20);
  assert.equal(loadCliOptions([], {}).stagger, false);
  assert.equal(loadCliOptions(['--stagger'], {}).stagger, true);
});

test('--ssdp-target: off by default, an IPv4 address and port, else an error naming the option', () => {
  assert.equal(parseSsdpTarget(loadCliOptions([], {})), null);
  assert.deepEqual(parseSsdpTarget(loadCliOptions(['--ssdp-target', '255.255.255.255:2021'], {})), {
    address: '255.255.255.255',
    port: 2021,
    intervalMs: 5000,
  });
  assert.deepEqual(parseSsdpTarget(loadCliOptions(['--ssdp-target', '127.0.0.1:40000', '--ssdp-interval-ms', '200'], {})), {
    address: '127.0.0.1',
    port: 40000,
    intervalMs: 200,
  });
  assert.throws(() => parseSsdpTarget(loadCliOptions(['--ssdp-target', 'printers.lan'], {})), /--ssdp-target/);
  assert.throws(() => parseSsdpTarget(loadCliOptions(['--ssdp-target', '127.0.0.1:0'], {})), /--ssdp-target/);
});
