/**
 * Throughput: the estimator must read at least a million lines of typical slicer output per second
 * of CPU time on the development machine (the Raspberry Pi is slower; the dashboard estimates
 * every upload). CPU time rather than wall time, so that other work on the machine does not decide
 * the result; the best of three runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GcodeEstimator } from '../../../../appliance/slicer/engine/estimate/estimator.js';
import { DEFAULT_LIMITS } from '../../../../appliance/slicer/engine/estimate/limits.js';

const LINES = 1_000_000;
const REQUIRED_LINES_PER_S = 1_000_000;
const CHUNK = 1 << 20;

/** PrusaSlicer-like output: layers of perimeters and zig-zag infill with feature comments and retracts. */
function syntheticGcode(lines: number): string {
  const out: string[] = ['M201 X1000 Y1000 Z200 E5000', 'M204 P1250 R1250 T1500', 'G21', 'G90', 'M83'];
  let layer = 0;
  while (out.length < lines) {
    layer++;
    const z = (0.2 * layer).toFixed(1);
    out.push(';LAYER_CHANGE', `;Z:${z}`, 'G1 E-.8 F2100', `G1 Z${z} F7800`, 'G1 X80.512 Y80.137', 'G1 E.8 F2100', ';TYPE:Perimeter', 'G1 F1800');
    for (let i = 0; i < 360 && out.length < lines; i++) {
      const a = (i * Math.PI) / 180;
      out.push(`G1 X${(110 + 30 * Math.cos(a)).toFixed(3)} Y${(110 + 30 * Math.sin(a)).toFixed(3)} E.01832`);
    }
    out.push(';TYPE:Internal infill', 'G1 F4800');
    for (let i = 0; i < 120 && out.length < lines; i++) {
      const y = (85 + i * 0.42).toFixed(3);
      out.push(`G1 X${i % 2 === 0 ? '85.125' : '134.875'} Y${y} E1.65713`, `G1 X${i % 2 === 0 ? '85.125' : '134.875'} Y${(85 + i * 0.42 + 0.42).toFixed(3)} E.01397`);
    }
  }
  return out.slice(0, lines).join('\n');
}

test('the estimator reads at least a million G-code lines per second of CPU time', (t) => {
  const gcode = syntheticGcode(LINES);
  let best = 0;
  for (let run = 0; run < 3; run++) {
    const estimator = new GcodeEstimator(DEFAULT_LIMITS);
    const before = process.cpuUsage();
    for (let i = 0; i < gcode.length; i += CHUNK) estimator.feed(gcode.slice(i, i + CHUNK));
    const result = estimator.finish();
    const used = process.cpuUsage(before);
    const seconds = (used.user + used.system) / 1e6;
    assert.equal(result.lines, LINES);
    best = Math.max(best, result.lines / seconds);
  }
  t.diagnostic(`${(best / 1e6).toFixed(2)} M lines/s (best of 3, CPU time)`);
  assert.ok(best >= REQUIRED_LINES_PER_S, `${Math.round(best)} lines/s`);
});
