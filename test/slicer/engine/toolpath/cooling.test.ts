import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decideCooling } from '../../../../appliance/slicer/engine/toolpath/cooling.js';
import { defaultConfig } from '../../../../appliance/slicer/profiles/schema.js';

function config(over: Record<string, unknown>) {
  return { ...defaultConfig(), ...over } as ReturnType<typeof defaultConfig>;
}

test('no fan on the first layers', () => {
  const c = config({ close_fan_the_first_x_layers: [2], fan_min_speed: [100], fan_max_speed: [100] });
  assert.equal(decideCooling(1, 5, 4, c, 0).fan, 0);
  assert.equal(decideCooling(2, 5, 4, c, 0).fan, 255);
});

test('a short layer is slowed to the minimum layer time and runs the fan at maximum', () => {
  const c = config({
    slow_down_layer_time: [10],
    fan_cooling_layer_time: [30],
    fan_min_speed: [20],
    fan_max_speed: [80],
    close_fan_the_first_x_layers: [0],
  });
  const d = decideCooling(5, 6, 5, c, 0);
  // A 6 s layer must take 10 s: its extrusions slow down by 4 s.
  assert.ok(Math.abs(d.slowDownBy - 4) < 1e-9);
  assert.ok(Math.abs(d.fan - 0.8 * 255) < 1e-9);
});

test('between the thresholds the fan is interpolated, above them it stops unless kept on', () => {
  const c = config({
    slow_down_layer_time: [10],
    fan_cooling_layer_time: [30],
    fan_min_speed: [20],
    fan_max_speed: [80],
    close_fan_the_first_x_layers: [0],
  });
  assert.ok(Math.abs(decideCooling(5, 20, 18, c, 0).fan - 0.5 * 255) < 1e-9);
  assert.equal(decideCooling(5, 40, 38, c, 0).fan, 0);
  const kept = config({ ...c, reduce_fan_stop_start_freq: [true] });
  assert.ok(Math.abs(decideCooling(5, 40, 38, kept, 0).fan - 0.2 * 255) < 1e-9);
  assert.equal(decideCooling(5, 40, 38, c, 0).slowDownBy, 0);
});

test('the fan ramps up to full at full_fan_speed_layer', () => {
  const c = config({
    close_fan_the_first_x_layers: [1],
    full_fan_speed_layer: [4],
    fan_min_speed: [100],
    fan_max_speed: [100],
    fan_cooling_layer_time: [100],
  });
  const fans = [1, 2, 3, 4].map((l) => decideCooling(l, 50, 45, c, 0).fan);
  assert.ok(fans[0] < fans[1] && fans[1] < fans[2] && fans[2] <= fans[3]);
  assert.equal(fans[3], 255);
});
