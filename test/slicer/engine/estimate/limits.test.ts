import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_FIRMWARE_RETRACTION,
  DEFAULT_LIMITS,
  copyLimits,
  firmwareRetractionFromConfig,
  limitsFromConfig,
} from '../../../../appliance/slicer/engine/estimate/limits.js';
import { defaultConfig, type PrintConfig } from '../../../../appliance/slicer/profiles/schema.js';

function config(patch: Partial<PrintConfig>): PrintConfig {
  return { ...defaultConfig(), ...patch };
}

test('the flavour picks the junction model and the command dialect', () => {
  assert.equal(limitsFromConfig(config({ gcode_flavor: 'marlin2' })).junction, 'jerk');
  assert.equal(limitsFromConfig(config({ gcode_flavor: 'marlin2', machine_max_junction_deviation: 0.013 })).junction, 'junction-deviation');
  assert.equal(limitsFromConfig(config({ gcode_flavor: 'marlin', machine_max_junction_deviation: 0.013 })).junction, 'jerk');
  const klipper = limitsFromConfig(config({ gcode_flavor: 'klipper', klipper_square_corner_velocity: 7 }));
  assert.equal(klipper.junction, 'klipper');
  assert.equal(klipper.dialect, 'klipper');
  assert.equal(klipper.squareCornerVelocity, 7);
  assert.equal(klipper.minimumCruiseRatio, 0.5);
  assert.equal(limitsFromConfig(config({ gcode_flavor: 'reprapfirmware' })).dialect, 'reprap');
  assert.equal(limitsFromConfig(config({ gcode_flavor: 'bambu' })).dialect, 'marlin');
});

test('machine limits come from the machine_* settings', () => {
  const l = limitsFromConfig(
    config({
      machine_max_speed_x: 300,
      machine_max_speed_y: 250,
      machine_max_speed_z: 10,
      machine_max_speed_e: 60,
      machine_max_acceleration_x: 3000,
      machine_max_acceleration_y: 2500,
      machine_max_acceleration_z: 100,
      machine_max_acceleration_e: 4000,
      machine_max_jerk_x: 9,
      machine_max_jerk_y: 7,
      machine_max_jerk_z: 0.3,
      machine_max_jerk_e: 4,
      machine_max_acceleration_extruding: 1500,
      machine_max_acceleration_retracting: 1200,
      machine_max_acceleration_travel: 2000,
      machine_min_extruding_rate: 1,
      machine_min_travel_rate: 2,
    }),
  );
  assert.deepEqual(l.maxSpeed, { x: 300, y: 250, z: 10, e: 60 });
  assert.deepEqual(l.maxAccel, { x: 3000, y: 2500, z: 100, e: 4000 });
  assert.deepEqual(l.maxJerk, { x: 9, y: 7, z: 0.3, e: 4 });
  assert.equal(l.printAccel, 1500);
  assert.equal(l.retractAccel, 1200);
  assert.equal(l.travelAccel, 2000);
  assert.equal(l.minExtrudeRate, 1);
  assert.equal(l.minTravelRate, 2);
});

test('legacy Marlin and Klipper travel at the extruding acceleration; RepRapFirmware has no feedrate floors', () => {
  const base = { machine_max_acceleration_extruding: 1500, machine_max_acceleration_travel: 3000, machine_min_travel_rate: 5 };
  assert.equal(limitsFromConfig(config({ ...base, gcode_flavor: 'marlin' })).travelAccel, 1500);
  assert.equal(limitsFromConfig(config({ ...base, gcode_flavor: 'klipper' })).travelAccel, 1500);
  assert.equal(limitsFromConfig(config({ ...base, gcode_flavor: 'marlin2' })).travelAccel, 3000);
  assert.equal(limitsFromConfig(config({ ...base, gcode_flavor: 'reprapfirmware' })).minTravelRate, 0);
});

test('firmware retraction per extruder; a zero deretraction speed means the retraction speed', () => {
  const r = firmwareRetractionFromConfig(
    config({
      retraction_length: [0.8, 2],
      retraction_speed: [30, 40],
      deretraction_speed: [0, 25],
      retract_restart_extra: [0],
    }),
  );
  assert.deepEqual(r, [
    { length: 0.8, speed: 30, unretractSpeed: 30, extraOnUnretract: 0 },
    { length: 2, speed: 40, unretractSpeed: 25, extraOnUnretract: 0 },
  ]);
});

test('defaults describe the schema default printer and cannot be changed by accident', () => {
  assert.deepEqual(DEFAULT_LIMITS, limitsFromConfig(defaultConfig()));
  assert.equal(DEFAULT_FIRMWARE_RETRACTION.length, 1);
  assert.throws(() => {
    (DEFAULT_LIMITS.maxSpeed as { x: number }).x = 1;
  }, TypeError);
  const copy = copyLimits(DEFAULT_LIMITS);
  copy.maxSpeed.x = 1;
  assert.notEqual(DEFAULT_LIMITS.maxSpeed.x, 1);
});
