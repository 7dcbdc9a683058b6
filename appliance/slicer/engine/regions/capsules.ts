/**
 * What a set of extruded lines covers, as one capsule (a segment thickened to a width, round ends)
 * per segment, made in JavaScript and not united. A caller that only subtracts the cover from
 * something hands these to the one boolean it makes (which unites its clip polygons by itself):
 * Clipper's thickening unites the capsules of neighbouring lines, which overlap along their
 * whole length, in a sweep of its own, and that sweep was as costly as the subtraction after it.
 */
import { ARC_TOLERANCE } from '../geometry/clipper.js';
import type { Polygon, Polyline } from '../geometry/types.js';

/**
 * Capsules (counter-clockwise) of every segment of `lines` at `width`, so that together they cover
 * what the lines thickened with round ends and joins cover; a line of one point (or of points all
 * in one place) is a disc. A cap is drawn as Clipper2 draws a round end: points on its arc a fixed
 * angle apart (the angle whose chord's middle lies ARC_TOLERANCE inside the arc), the last one at
 * its end, so the cover and the gaps left beside it are those Clipper's thickening gave.
 */
export function segmentCapsules(lines: readonly Polyline[], width: number): Polygon[] {
  const r = width / 2;
  const step = arcStep(r);
  const steps = Math.max(1, Math.ceil(Math.PI / step));
  const turns = new Float64Array(2 * steps);
  for (let s = 0; s < steps; s++) {
    turns[2 * s] = Math.cos(s * step);
    turns[2 * s + 1] = Math.sin(s * step);
  }
  const out: Polygon[] = [];
  for (const line of lines) {
    let made = false;
    for (let i = 2; i < line.length; i += 2) {
      const capsule = capsuleOf(line[i - 2], line[i - 1], line[i], line[i + 1], r, turns);
      if (capsule) {
        out.push(capsule);
        made = true;
      }
    }
    if (!made && line.length >= 2) out.push(discOf(line[0], line[1], r, 2 * steps));
  }
  return out;
}

/** Angle between a round end's points: its chords' middles lie ARC_TOLERANCE inside the arc of radius r. */
export function arcStep(r: number): number {
  if (r <= ARC_TOLERANCE) return Math.PI / 2;
  return 2 * Math.acos(1 - ARC_TOLERANCE / r);
}

/** The capsule of segment a–b, or null when its ends coincide. */
function capsuleOf(ax: number, ay: number, bx: number, by: number, r: number, turns: Float64Array): Polygon | null {
  const dx = bx - ax;
  const dy = by - ay;
  const length = Math.sqrt(dx * dx + dy * dy);
  if (!(length > 0)) return null;
  const ux = dx / length;
  const uy = dy / length;
  // From a's right side along the segment to b, round b's end, back along the left side, round a's end.
  const out = new Float64Array(2 * turns.length + 4);
  const k = roundEnd(out, 0, bx, by, uy, -ux, r, turns);
  roundEnd(out, k, ax, ay, -uy, ux, r, turns);
  return out;
}

/**
 * Writes the half circle around (cx, cy) from the side (sx, sy) (a unit vector) to the opposite
 * side, turning counter-clockwise: a point at each turn of `turns` (cosine, sine pairs), then the
 * end; from slot k on, returning the slot after them.
 */
function roundEnd(out: Float64Array, k: number, cx: number, cy: number, sx: number, sy: number, r: number, turns: Float64Array): number {
  for (let s = 0; s < turns.length; s += 2) {
    const c = turns[s];
    const n = turns[s + 1];
    out[k++] = cx + r * (c * sx - n * sy);
    out[k++] = cy + r * (c * sy + n * sx);
  }
  out[k++] = cx - r * sx;
  out[k++] = cy - r * sy;
  return k;
}

function discOf(cx: number, cy: number, r: number, steps: number): Polygon {
  const out = new Float64Array(2 * steps);
  for (let s = 0; s < steps; s++) {
    const t = (2 * Math.PI * s) / steps;
    out[2 * s] = cx + r * Math.cos(t);
    out[2 * s + 1] = cy + r * Math.sin(t);
  }
  return out;
}
