/**
 * The writer's wipe: before a retraction the nozzle moves back along the path it just printed, by
 * the wipe distance, whichever way that path was printed (an open line is printed from the end
 * nearer the nozzle, without copying it reversed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cubeWithHole } from '../../../fixtures/meshes.js';
import { cleanup, config, slice } from '../../../fixtures/slicing.js';

const WIPE_DISTANCE = 2;
/** G-code coordinates have 3 decimals. */
const TOLERANCE = 2e-3;

interface Point {
  x: number;
  y: number;
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0;
  return Math.hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
}

/** The last `length` mm of a path (its points from the end back). */
function tail(path: Point[], length: number): Point[] {
  const out = [path[path.length - 1]];
  let left = length;
  for (let k = path.length - 2; k >= 0 && left > 0; k--) {
    out.push(path[k]);
    left -= Math.hypot(path[k + 1].x - path[k].x, path[k + 1].y - path[k].y);
  }
  return out;
}

test('each wipe runs back along the end of the path printed just before it', async () => {
  const cfg = await config({ wipe: [true], wipe_distance: [WIPE_DISTANCE], retraction_minimum_travel: [0.5] });
  const sliced = await slice(cubeWithHole(20, 8), cfg);
  try {
    let x = 0;
    let y = 0;
    let path: Point[] = [];
    let wiping: Point[] | null = null;
    let wipes = 0;
    for (const line of sliced.gcode.split('\n')) {
      if (line.startsWith(';WIPE_START')) {
        assert.ok(path.length >= 2, 'a wipe follows a printed path');
        wiping = tail(path, WIPE_DISTANCE);
        wipes++;
        continue;
      }
      if (line.startsWith(';WIPE_END')) {
        wiping = null;
        path = [];
        continue;
      }
      if (!line.startsWith('G1 ')) continue;
      const word = (k: string) => /-?[\d.]+/.exec(line.split(k)[1] ?? '')?.[0];
      const nx = line.includes(' X') ? Number(word(' X')) : x;
      const ny = line.includes(' Y') ? Number(word(' Y')) : y;
      const extrudes = line.includes(' E') && Number(word(' E')) > 0;
      if (wiping) {
        const point = { x: nx, y: ny };
        const off = Math.min(...wiping.slice(1).map((b, k) => distanceToSegment(point, wiping?.[k] ?? b, b)));
        assert.ok(off <= TOLERANCE, `wipe move to ${nx},${ny} is ${off.toFixed(4)} mm off the end of the last path`);
      } else if (extrudes && (nx !== x || ny !== y)) {
        if (path.length === 0) path.push({ x, y });
        path.push({ x: nx, y: ny });
      } else if (nx !== x || ny !== y) path = [];
      x = nx;
      y = ny;
    }
    assert.ok(wipes > 20, `the part's travels wipe (${wipes} wipes)`);
  } finally {
    cleanup(sliced);
  }
});
