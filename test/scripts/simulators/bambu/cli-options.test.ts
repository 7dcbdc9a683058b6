import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCliOptions, printerSpecs } from '../../../../scripts/simulators/bambu/cli-options.js';

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
