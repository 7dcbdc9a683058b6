import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFirmwareInfo, parseFirmwareLine } from '../../../../../appliance/dashboard/printers/families/marlin-serial/firmware-info.js';
import { checksum, cleanCommand, frame, isLongRunning } from '../../../../../appliance/dashboard/printers/families/marlin-serial/framing.js';
import { classify, isBareOk, parsePosition, parseTemperatures } from '../../../../../appliance/dashboard/printers/families/marlin-serial/replies.js';

test('framing: N<n> <command>*<xor of the bytes before *>', () => {
  assert.equal(frame(0, 'M110 N0'), 'N0 M110 N0*125');
  assert.equal(checksum('N1 M115'), 39);
  assert.equal(frame(1, 'M117 Grüße'), `N1 M117 Grüße*${checksum('N1 M117 Grüße')}`);
});

test('cleanCommand: comments, spaces, line numbers and checksums already in a file go', () => {
  assert.equal(cleanCommand('G1 X10 Y5 E0.4 ; perimeter'), 'G1 X10 Y5 E0.4');
  assert.equal(cleanCommand('   ; only a comment'), '');
  assert.equal(cleanCommand('N42 G28*17'), 'G28');
  assert.equal(cleanCommand('M117 50% done\r'), 'M117 50% done');
  assert.ok(isLongRunning('M109 S200') && isLongRunning('G28 X') && isLongRunning('M400'));
  assert.ok(!isLongRunning('G1 X5') && !isLongRunning('M1090') && !isLongRunning('G280'));
});

test('classify: flow control, errors, reports', () => {
  assert.deepEqual(classify('ok'), { kind: 'ok', rest: '' });
  assert.deepEqual(classify('ok N12 P15 B3'), { kind: 'ok', rest: 'N12 P15 B3' });
  assert.ok(isBareOk('N12 P15 B3') && !isBareOk('T:20.0 /0.0'));
  assert.deepEqual(classify('Resend: 7'), { kind: 'resend', line: 7 });
  assert.deepEqual(classify('rs N7'), { kind: 'resend', line: 7 });
  assert.deepEqual(classify('echo:busy: processing'), { kind: 'busy' });
  assert.deepEqual(classify('busy: paused for user'), { kind: 'busy' });
  assert.deepEqual(classify('wait'), { kind: 'wait' });
  assert.deepEqual(classify('start'), { kind: 'start' });
  assert.equal(classify('Error:checksum mismatch, Last Line: 3').kind, 'line-error');
  assert.equal(classify('Error:Line Number is not Last Line Number+1, Last Line: 3').kind, 'line-error');
  assert.deepEqual(classify('Error:G2/G3 bad parameters'), { kind: 'error', text: 'G2/G3 bad parameters', fatal: false, halted: false });
  assert.deepEqual(classify('Error:Printer halted. kill() called!'), {
    kind: 'error',
    text: 'Printer halted. kill() called!',
    fatal: true,
    halted: true,
  });
  assert.deepEqual(classify('Error:Thermal Runaway, system stopped! Heater_ID: 0'), {
    kind: 'error',
    text: 'Thermal Runaway, system stopped! Heater_ID: 0',
    fatal: true,
    halted: false,
  });
  assert.deepEqual(classify('SD printing byte 120/4000'), { kind: 'sd', report: { kind: 'printing', position: 120, size: 4000 } });
  assert.deepEqual(classify('Not SD printing'), { kind: 'sd', report: { kind: 'not-printing' } });
  assert.deepEqual(classify('Done printing file'), { kind: 'sd', report: { kind: 'done' } });
  assert.deepEqual(classify('Current file: BENCHY~1.GCO Benchy fast.gcode'), {
    kind: 'sd',
    report: { kind: 'current-file', name: 'Benchy fast.gcode' },
  });
  assert.deepEqual(classify('//action:pause'), { kind: 'action', action: 'pause' });
  assert.deepEqual(classify('echo:Unknown command: "M701"'), { kind: 'other' });
});

test('temperatures: one hotend, several, the chamber, the waiting lines of M109', () => {
  assert.deepEqual(parseTemperatures(' T:21.56 /0.00 B:21.88 /60.00 @:0 B@:0'), {
    heaters: { tool0: { actual: 21.56, target: 0 }, bed: { actual: 21.88, target: 60 } },
    waiting: false,
  });
  assert.deepEqual(parseTemperatures('ok T:200.1 /200.0 B:60.0 /60.0 T0:200.1 /200.0 T1:150.0 /0.0 C:30.5 /0.0 @:64 B@:20 @0:64 @1:0')?.heaters, {
    tool0: { actual: 200.1, target: 200 },
    tool1: { actual: 150, target: 0 },
    bed: { actual: 60, target: 60 },
    chamber: { actual: 30.5, target: 0 },
  });
  assert.equal(parseTemperatures(' T:150.12 /200.00 B:60.00 /60.00 @:127 B@:0 W:?')?.waiting, true);
  assert.equal(classify(' T:150.12 /200.00 B:60.00 /60.00 @:127 B@:0 W:3').kind, 'temperatures');
  assert.equal(parseTemperatures('echo:  M301 P22.20 I1.08 D114.00'), null);
  assert.deepEqual(parsePosition('X:10.00 Y:20.50 Z:0.30 E:-1.20 Count X:800 Y:1640 Z:120'), { x: 10, y: 20.5, z: 0.3, e: -1.2 });
  assert.equal(parsePosition('ok'), null);
});

test('M115: the firmware line cut at each KEY:, the Cap lines', () => {
  const line =
    'FIRMWARE_NAME:Marlin 2.1.2 (Sep 1 2023) SOURCE_CODE_URL:github.com/MarlinFirmware/Marlin PROTOCOL_VERSION:1.0 ' +
    'MACHINE_TYPE:Ender-3 V2 EXTRUDER_COUNT:2 UUID:cede2a2f-41a2-4748-9b12-c55c62f367ff';
  assert.deepEqual(parseFirmwareLine(line), {
    FIRMWARE_NAME: 'Marlin 2.1.2 (Sep 1 2023)',
    SOURCE_CODE_URL: 'github.com/MarlinFirmware/Marlin',
    PROTOCOL_VERSION: '1.0',
    MACHINE_TYPE: 'Ender-3 V2',
    EXTRUDER_COUNT: '2',
    UUID: 'cede2a2f-41a2-4748-9b12-c55c62f367ff',
  });
  const info = parseFirmwareInfo([line, 'Cap:AUTOREPORT_TEMP:1', 'Cap:EMERGENCY_PARSER:0', 'echo:something else']);
  assert.deepEqual(info, {
    name: 'Marlin 2.1.2 (Sep 1 2023)',
    machineType: 'Ender-3 V2',
    extruders: 2,
    uuid: 'cede2a2f-41a2-4748-9b12-c55c62f367ff',
    capabilities: { AUTOREPORT_TEMP: true, EMERGENCY_PARSER: false },
  });
  assert.equal(
    parseFirmwareInfo([
      'FIRMWARE_NAME:Prusa-Firmware 3.13.0 based on Marlin FIRMWARE_URL:https://github.com/prusa3d/Prusa-Firmware ' +
        'PROTOCOL_VERSION:1.0 MACHINE_TYPE:Prusa i3 MK3S EXTRUDER_COUNT:1',
    ]).machineType,
    'Prusa i3 MK3S',
  );
});
