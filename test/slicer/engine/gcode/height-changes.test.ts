import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HeightChangeState, heightChangesProblem, MAX_HEIGHT_CHANGES } from '../../../../appliance/slicer/engine/gcode/height-changes.js';

test('a change applies from the first layer whose bottom is at or above its z_from, and holds until the next', () => {
  const state = new HeightChangeState([
    { z_from: 5, setting: 'retraction_length', value: 1.2 },
    { z_from: 1, setting: 'nozzle_temperature', value: 215 },
    { z_from: 1.1, setting: 'nozzle_temperature', value: 210 },
  ]);
  assert.deepEqual(state.enterLayer(0), []);
  assert.equal(state.value('nozzle_temperature'), null, "below every change the profile's value applies");
  assert.deepEqual(state.enterLayer(0.8), []);
  // 1 − 1e-9: a layer bottom summed from layer heights lands a hair below the change's height.
  assert.deepEqual(state.enterLayer(1 - 1e-9), ['M104 S215 ; nozzle temperature from z 1.00']);
  assert.deepEqual(state.enterLayer(1.2), ['M104 S210 ; nozzle temperature from z 1.20']);
  assert.equal(state.value('retraction_length'), null);
  assert.deepEqual(state.enterLayer(5.2), []);
  assert.equal(state.value('retraction_length'), 1.2);
  assert.equal(state.value('nozzle_temperature'), 210);
});

test('of several changes met by one layer the last counts, and a temperature already set is not written again', () => {
  const state = new HeightChangeState([
    { z_from: 2, setting: 'nozzle_temperature', value: 230 },
    { z_from: 2, setting: 'nozzle_temperature', value: 220 },
    { z_from: 4, setting: 'nozzle_temperature', value: 220 },
    { z_from: 4, setting: 'retraction_speed', value: 40 },
  ]);
  assert.deepEqual(state.enterLayer(3), ['M104 S220 ; nozzle temperature from z 3.00']);
  assert.deepEqual(state.enterLayer(4), []);
  assert.equal(state.value('retraction_speed'), 40);
});

test('a request’s list is checked item by item, each problem named', () => {
  assert.equal(heightChangesProblem([]), null);
  assert.equal(heightChangesProblem([{ z_from: 0, setting: 'retraction_length', value: 0 }]), null);
  const cases: [unknown, RegExp][] = [
    [{}, /must be a JSON array/],
    [[null], /item 0 must be an object/],
    [[{ z_from: 1, setting: 'nozzle_temperature', value: 200, at: 3 }], /item 0 has an unknown key "at"/],
    [[{ z_from: -1, setting: 'nozzle_temperature', value: 200 }], /item 0: z_from must be a number ≥ 0/],
    [[{ z_from: 1, setting: 'fan_speed', value: 50 }], /item 0: setting must be one of nozzle_temperature, retraction_length, retraction_speed/],
    [
      [
        { z_from: 1, setting: 'nozzle_temperature', value: 200 },
        { z_from: 2, setting: 'nozzle_temperature', value: 900 },
      ],
      /item 1: nozzle_temperature must be a number from 0 to 500/,
    ],
    [[{ z_from: 1, setting: 'retraction_speed', value: '30' }], /item 0: retraction_speed must be a number/],
    [Array.from({ length: MAX_HEIGHT_CHANGES + 1 }, () => ({ z_from: 1, setting: 'retraction_length', value: 1 })), /at most 256/],
  ];
  for (const [value, message] of cases) assert.match(heightChangesProblem(value) ?? '', message, JSON.stringify(value).slice(0, 80));
});

test('under firmware retraction the firmware is told the new length and speed at the layer', () => {
  const changes = [
    { z_from: 1, setting: 'retraction_length', value: 0.8 },
    { z_from: 2, setting: 'retraction_speed', value: 35 },
    { z_from: 3, setting: 'retraction_length', value: 0.8 },
  ] as const;
  const marlin = new HeightChangeState(changes, 'marlin');
  assert.deepEqual(marlin.enterLayer(1), ['M207 S0.8 ; firmware retraction']);
  assert.deepEqual(marlin.enterLayer(2), ['M207 F2100 ; firmware retraction', 'M208 F2100 ; firmware deretraction']);
  assert.deepEqual(marlin.enterLayer(3), [], 'the same length again needs no line');
  const reprap = new HeightChangeState(changes, 'reprapfirmware');
  assert.deepEqual(reprap.enterLayer(1), ['M207 S0.8 ; firmware retraction']);
  assert.deepEqual(reprap.enterLayer(2), ['M207 F2100 T2100 ; firmware retraction'], 'M208 is an axis limit there');
  const klipper = new HeightChangeState(changes, 'klipper');
  assert.deepEqual(klipper.enterLayer(1), ['SET_RETRACTION RETRACT_LENGTH=0.8']);
  assert.deepEqual(klipper.enterLayer(2), ['SET_RETRACTION RETRACT_SPEED=35 UNRETRACT_SPEED=35']);
  assert.deepEqual(new HeightChangeState(changes).enterLayer(2), [], 'the G-code retracts itself: nothing to tell the firmware');
});
