import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GcodeCommand } from '../../../../scripts/simulators/marlin/gcode-command.js';
import { DEFAULT_GEOMETRY, Motion } from '../../../../scripts/simulators/marlin/motion.js';

const HOT = 210;
const COLD = 25;

function move(motion: Motion, line: string, temperature = HOT) {
  const cmd = new GcodeCommand(line);
  return motion.linearMove(motion.destination(cmd), temperature);
}

describe('Motion', () => {
  test('moves take distance / feed rate, and the feed rate is sticky', () => {
    const motion = new Motion(DEFAULT_GEOMETRY, 1);
    assert.equal(move(motion, 'G1 X100 F6000').durationMs, 1000);
    assert.equal(move(motion, 'G1 X100 Y100').durationMs, 1000);
    assert.deepEqual(motion.position, { X: 100, Y: 100, Z: 0, E: 0 });
  });

  test('the maximum feed rate of each axis limits a move', () => {
    const motion = new Motion(DEFAULT_GEOMETRY, 1);
    assert.equal(move(motion, 'G1 Z10 F6000').durationMs, 2000);
    assert.equal(move(motion, 'G1 E50 F6000').durationMs, 2000);
  });

  test('the speed factor (M220) scales the time', () => {
    const motion = new Motion(DEFAULT_GEOMETRY, 1);
    motion.feedratePercent = 50;
    assert.equal(move(motion, 'G1 X50 F3000').durationMs, 2000);
  });

  test('relative modes and G92 change how targets are read', () => {
    const motion = new Motion(DEFAULT_GEOMETRY, 1);
    move(motion, 'G1 X10 E2');
    motion.relativeXYZ = true;
    motion.relativeE = true;
    move(motion, 'G1 X5 E1');
    assert.deepEqual(motion.position, { X: 15, Y: 0, Z: 0, E: 3 });
    motion.setPosition({ E: 0, X: 0 });
    assert.deepEqual(motion.position, { X: 0, Y: 0, Z: 0, E: 0 });
    assert.equal(motion.counts().X, 15 * DEFAULT_GEOMETRY.stepsPerMm.X);
  });

  test('extrusion counts the filament through the active tool, scaled by its flow', () => {
    const motion = new Motion(DEFAULT_GEOMETRY, 2);
    assert.equal(move(motion, 'G1 X10 E4').filament, 4);
    motion.activeTool = 1;
    motion.flowPercent[1] = 90;
    const plan = move(motion, 'G1 X20 E14');
    assert.equal(plan.tool, 1);
    assert.ok(Math.abs(plan.filament - 9) < 1e-9);
    assert.equal(move(motion, 'G1 E12').filament, -1.8);
  });

  test('cold extrusion is prevented until M302 allows it', () => {
    const motion = new Motion(DEFAULT_GEOMETRY, 1);
    const cold = move(motion, 'G1 X10 E5', COLD);
    assert.deepEqual([cold.filament, cold.coldExtrusionPrevented], [0, true]);
    assert.equal(motion.position.E, 5);
    motion.allowColdExtrusion = true;
    assert.equal(move(motion, 'G1 X20 E6', COLD).filament, 1);
  });

  test('moves of a cancelled object (M486) travel without extruding', () => {
    const motion = new Motion(DEFAULT_GEOMETRY, 1);
    motion.currentObject = 1;
    motion.cancelledObjects.add(1);
    const plan = move(motion, 'G1 X10 E5');
    assert.equal(plan.filament, 0);
    assert.ok(plan.durationMs > 0);
  });

  test('arcs take their length: I/J centre or radius, both directions', () => {
    const quarter = (Math.PI * 10) / 2;
    const arc = (line: string, clockwise: boolean) => {
      const motion = new Motion(DEFAULT_GEOMETRY, 1);
      move(motion, 'G1 X10 Y0 F600');
      const cmd = new GcodeCommand(line);
      return motion.arcMove(motion.destination(cmd), cmd, clockwise, HOT);
    };
    assert.ok(Math.abs((arc('G3 X0 Y10 I-10 J0', false)?.durationMs ?? 0) - quarter * 100) < 1e-6);
    assert.ok(Math.abs((arc('G2 X0 Y10 I-10 J0', true)?.durationMs ?? 0) - 3 * quarter * 100) < 1e-6);
    assert.ok(Math.abs((arc('G3 X0 Y10 R10', false)?.durationMs ?? 0) - quarter * 100) < 1e-6);
    assert.ok(Math.abs((arc('G3 X0 Y10 R-10', false)?.durationMs ?? 0) - 3 * quarter * 100) < 1e-6);
    assert.ok(Math.abs((arc('G2 X10 Y0 I-10 J0', true)?.durationMs ?? 0) - 4 * quarter * 100) < 1e-6);
    assert.equal(arc('G2 X50 Y0 R5', true), null);
  });

  test('homing zeroes the axes, takes time, and turns the soft endstops on', () => {
    const motion = new Motion(DEFAULT_GEOMETRY, 1);
    move(motion, 'G1 X300 Y-5');
    assert.deepEqual([motion.position.X, motion.position.Y], [300, -5]);
    const ms = motion.home(['X', 'Y']);
    assert.ok(ms > 0);
    assert.deepEqual(motion.homed, { X: true, Y: true, Z: false });
    move(motion, 'G1 X300 Y-5 Z-3');
    assert.deepEqual(motion.position, { X: 220, Y: 0, Z: -3, E: 0 });
  });
});
