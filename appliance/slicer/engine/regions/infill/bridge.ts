/**
 * Bridge direction: the direction in which straight lines across the unsupported area are best
 * held at both ends by the solid material below.
 */
import { differenceEx } from '../../geometry/clipper.js';
import { bboxOfEx, length2, pointInExPolygon } from '../../geometry/polygon.js';
import type { BBox2, ExPolygon } from '../../geometry/types.js';
import { Boundary } from './boundary.js';
import { hatch } from './hatch.js';
import type { PieceSink } from './pieces.js';

const DEG = Math.PI / 180;
/** Regular candidate directions, degrees apart. */
const ANGLE_STEP = 10;
/** Sample lines across the bridge's larger extent. */
const SAMPLE_LINES = 64;
/** How far past the end of a sample line (mm) the anchor is looked for. */
const PROBE = 0.5;
/** Outline edges whose direction (and its normal) are tried besides the regular angles. */
const EDGE_CANDIDATES = 6;
/** Scores this close to the best count as a tie, decided by the shorter longest line. */
const TIE = 0.005;

/**
 * The direction (degrees in [0, 180), counter-clockwise from +X) in which the bridge LINES run:
 * from an anchor across the gap to an anchor. Pass it unchanged as the fill angle:
 * `fill({ pattern: 'alignedrectilinear', density: 1, angle: bridgeAngle(bridge, anchors), ... })`.
 *
 * `bridge` may or may not already overlap the anchors (the lower layer's solid area around it);
 * only its unsupported part is scored. For every candidate direction, sample lines crossing that
 * part count when both their ends continue onto an anchor; the direction with the largest
 * anchored share of line length wins, and among equals the one with the shortest longest line
 * (so a bridge anchored all round, over a hole, spans the short way).
 */
export function bridgeAngle(bridge: ExPolygon, anchors: ExPolygon[]): number {
  const unsupported = differenceEx([bridge], anchors);
  const gap = unsupported.length > 0 ? unsupported : [bridge];
  const box = bboxOfEx(gap);
  const step = Math.max(Math.max(box.maxX - box.minX, box.maxY - box.minY) / SAMPLE_LINES, 0.05);
  const anchorBoxes = anchors.map((a) => bboxOfEx([a]));
  const boundaries = gap.map((ex) => new Boundary(ex));
  const scored = candidateAngles(bridge).map((angle) => ({ angle, ...score(boundaries, angle, step, anchors, anchorBoxes) }));
  const topShare = Math.max(...scored.map((s) => s.share));
  let best = scored[0];
  for (const s of scored) if (s.share >= topShare - TIE && (best.share < topShare - TIE || s.longest < best.longest)) best = s;
  return best.angle;
}

function candidateAngles(bridge: ExPolygon): number[] {
  const angles: number[] = [];
  for (let a = 0; a < 180; a += ANGLE_STEP) angles.push(a);
  const ring = bridge.contour;
  const n = ring.length >> 1;
  const edges: { len: number; dir: number }[] = [];
  for (let i = 0; i < n; i++) {
    const j = i + 1 < n ? i + 1 : 0;
    const dx = ring[j * 2] - ring[i * 2];
    const dy = ring[j * 2 + 1] - ring[i * 2 + 1];
    edges.push({ len: length2(dx, dy), dir: Math.atan2(dy, dx) / DEG });
  }
  edges.sort((a, b) => b.len - a.len);
  for (const e of edges.slice(0, EDGE_CANDIDATES)) angles.push(e.dir, e.dir + 90);
  const normalized = angles.map((a) => ((a % 180) + 180) % 180).sort((a, b) => a - b);
  return normalized.filter((a, i) => i === 0 || a - normalized[i - 1] > 0.5);
}

/** Anchored share of the sample line length in one direction, and the longest anchored line. */
function score(
  boundaries: readonly Boundary[],
  angleDeg: number,
  step: number,
  anchors: readonly ExPolygon[],
  anchorBoxes: readonly BBox2[],
): { share: number; longest: number } {
  const sums = new AnchorSums(Math.cos(angleDeg * DEG), Math.sin(angleDeg * DEG), anchors, anchorBoxes);
  for (const b of boundaries) hatch(b, angleDeg * DEG, { kind: 'grid', step }, 0, sums);
  const { total, anchored, longestAnchored, longest } = sums;
  // With nothing anchored in any direction, the shortest span is the least bad.
  return { share: total > 0 ? anchored / total : 0, longest: anchored > 0 ? longestAnchored : longest };
}

/**
 * The sample lines of one direction summed as the sweep finds them, in its order: the lengths are
 * all the score needs, so no piece is kept (a bridge is scored in some thirty directions).
 */
class AnchorSums implements PieceSink {
  total = 0;
  anchored = 0;
  longestAnchored = 0;
  longest = 0;

  constructor(
    private readonly dx: number,
    private readonly dy: number,
    private readonly anchors: readonly ExPolygon[],
    private readonly boxes: readonly BBox2[],
  ) {}

  piece(x0: number, y0: number, x1: number, y1: number): void {
    // length2 written out: inlined into the sweep, this method leaves no inlining budget for the
    // call, which then returned a boxed number for every sample line.
    const dx0 = x1 - x0;
    const dy0 = y1 - y0;
    const len = Math.sqrt(dx0 * dx0 + dy0 * dy0);
    this.total += len;
    if (len > this.longest) this.longest = len;
    const { dx, dy, anchors, boxes } = this;
    const held = onAnchor(x0 - dx * PROBE, y0 - dy * PROBE, anchors, boxes) && onAnchor(x1 + dx * PROBE, y1 + dy * PROBE, anchors, boxes);
    if (!held) return;
    this.anchored += len;
    if (len > this.longestAnchored) this.longestAnchored = len;
  }
}

function onAnchor(x: number, y: number, anchors: readonly ExPolygon[], boxes: readonly BBox2[]): boolean {
  for (let i = 0; i < anchors.length; i++) {
    const b = boxes[i];
    if (x < b.minX || x > b.maxX || y < b.minY || y > b.maxY) continue;
    if (pointInExPolygon(x, y, anchors[i])) return true;
  }
  return false;
}
