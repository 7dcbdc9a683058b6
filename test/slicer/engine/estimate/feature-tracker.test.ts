import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GcodeEstimator } from '../../../../appliance/slicer/engine/estimate/estimator.js';
import { copyLimits, DEFAULT_LIMITS } from '../../../../appliance/slicer/engine/estimate/limits.js';

/** `count` back-and-forth moves of `length` mm at F3000 (50 mm/s). */
function strokes(count: number, length: number): string[] {
  return Array.from({ length: count }, (_, i) => `G1 X${i % 2 === 0 ? length : 0} E0.5`);
}

function estimate(lines: string[]) {
  const estimator = new GcodeEstimator(copyLimits(DEFAULT_LIMITS));
  estimator.feed(`${lines.join('\n')}\n`);
  return estimator.finish();
}

test('time per feature type: PrusaSlicer and OrcaSlicer comments, runs of one type added up, moves before any are Other', () => {
  const lines = [
    'M83',
    'G1 Y10 F3000',
    ';TYPE:Perimeter',
    ...strokes(600, 20),
    '; FEATURE: Sparse infill',
    ...strokes(1200, 20),
    ';TYPE:Perimeter',
    ...strokes(600, 20),
  ];
  const result = estimate(lines);
  const { Perimeter, 'Sparse infill': infill, Other } = result.featureS;
  assert.deepEqual(Object.keys(result.featureS).sort(), ['Other', 'Perimeter', 'Sparse infill']);
  // Equal strokes: the two perimeter runs took as long as the infill run, longer than a window of the planner.
  assert.ok(Math.abs(Perimeter / infill - 1) < 0.01, `${Perimeter} s vs ${infill} s`);
  assert.ok(Other > 0 && Other < 1);
  assert.ok(Math.abs(Perimeter + infill + Other - result.totalS) < 1e-6);
});

test('a file without feature comments is all Other; an empty type name is not a marker', () => {
  const result = estimate(['M83', ';TYPE:', ...strokes(10, 10)]);
  assert.deepEqual(Object.keys(result.featureS), ['Other']);
  assert.equal(result.featureS.Other, result.totalS);
});
