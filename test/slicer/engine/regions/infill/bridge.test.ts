import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bridgeAngle } from '../../../../../appliance/slicer/engine/regions/infill/bridge.js';
import { fill } from '../../../../../appliance/slicer/engine/regions/infill/fill.js';
import { rotatePath } from '../../../../../appliance/slicer/engine/geometry/lines.js';
import { pointInExPolygon } from '../../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../../appliance/slicer/engine/geometry/types.js';
import { rect, request } from './shapes.js';

const turned = (deg: number) => (p: Float64Array) => rotatePath(p, (deg * Math.PI) / 180);
const angleGap = (a: number, b: number) => Math.min(Math.abs(a - b) % 180, 180 - (Math.abs(a - b) % 180));

for (const deg of [0, 30, 77, 135]) {
  test(`a bridge between two pillars runs across the gap (setup turned ${deg}°)`, () => {
    const t = turned(deg);
    const pillars: ExPolygon[] = [
      { contour: t(rect(0, 0, 10, 20)), holes: [] },
      { contour: t(rect(30, 0, 40, 20)), holes: [] },
    ];
    const gap = { contour: t(rect(10, 0, 30, 20)), holes: [] };
    const grownIntoPillars = { contour: t(rect(7, 0, 33, 20)), holes: [] };
    assert.ok(angleGap(bridgeAngle(gap, pillars), deg) < 0.5);
    assert.ok(angleGap(bridgeAngle(grownIntoPillars, pillars), deg) < 0.5);
  });
}

test('the bridge fill, given the angle as it is, lays lines from pillar to pillar', () => {
  const t = turned(20);
  const pillars: ExPolygon[] = [
    { contour: t(rect(0, 0, 10, 20)), holes: [] },
    { contour: t(rect(30, 0, 40, 20)), holes: [] },
  ];
  const bridge = { contour: t(rect(7, 0, 33, 20)), holes: [] };
  const angle = bridgeAngle(bridge, pillars);
  const out = fill(request([bridge], 'alignedrectilinear', 1, { angle, role: 'bridge', connect: false }));
  assert.ok(out.length > 20);
  for (const e of out) {
    const p = e.points;
    const onPillar = (x: number, y: number) => pillars.some((ex) => pointInExPolygon(x, y, ex));
    assert.ok(onPillar(p[0], p[1]) && onPillar(p[p.length - 2], p[p.length - 1]), 'both ends on a pillar');
  }
});

test('a bridge over a hole anchored all round spans the short way', () => {
  const t = turned(10);
  const plate: ExPolygon[] = [{ contour: t(rect(0, 0, 50, 30)), holes: [t(rect(10, 10, 40, 18, true))] }];
  assert.ok(angleGap(bridgeAngle({ contour: t(rect(10, 10, 40, 18)), holes: [] }, plate), 100) < 0.5);
});

test('a bridge anchored on one side only still gets the shortest span', () => {
  const wall: ExPolygon[] = [{ contour: rect(0, 0, 5, 40), holes: [] }];
  assert.ok(angleGap(bridgeAngle({ contour: rect(5, 0, 15, 40), holes: [] }, wall), 0) < 0.5);
});
