/**
 * Classic walls: the outer wall's centreline half a width inside the outline, each further wall
 * one spacing further in (PrusaSlicer's rule, so neighbouring walls fuse without gaps or
 * overlap). The inner edge of the innermost wall bounds the infill.
 */
import { clipPolylines, offsetEx } from '../geometry/clipper.js';
import { bboxOf, closeLoop, exPolygonsNear, polylineLength, signedArea } from '../geometry/polygon.js';
import type { ExPolygon, Polygon } from '../geometry/types.js';
import type { Extrusion, ExtrusionRole } from '../toolpath/types.js';
import { crossSection, spacingOf } from './flow.js';
import { clearlyInside, sideOfSupport } from './loop-support.js';

export type WallSequence = 'inner wall/outer wall' | 'outer wall/inner wall' | 'inner-outer-inner wall';

export interface WallParams {
  loops: number;
  outerWidth: number;
  innerWidth: number;
  height: number;
  sequence: WallSequence;
  detectThinWalls: boolean;
  /** Nozzle diameter: the variable-width walls bound their line widths by shares of it. */
  nozzle: number;
  /** The layer below, for telling overhanging outer walls. Null on the first layer or when disabled. */
  supportedBy: WallSupport | null;
}

/** The layer below: outer walls mostly outside it grown by half a wall width overhang. */
export interface WallSupport {
  islands: ExPolygon[];
  /** The islands grown by half a wall width (an offset of the whole layer, made when a loop needs it). */
  grown: () => ExPolygon[];
}

export interface IslandWalls {
  walls: Extrusion[];
  /** The area inside the innermost wall's inner edge. */
  innerEdge: ExPolygon[];
  /** Spacing of the innermost wall (the infill overlaps it by a share of this). */
  innerSpacing: number;
}

export function buildWalls(island: ExPolygon, p: WallParams): IslandWalls {
  const outerSpacing = spacingOf(p.outerWidth, p.height);
  const innerSpacing = spacingOf(p.innerWidth, p.height);
  if (p.loops <= 0) return { walls: [], innerEdge: [island], innerSpacing: outerSpacing };

  const rings: { depth: number; ex: ExPolygon[] }[] = [];
  let current = offsetEx([island], -p.outerWidth / 2);
  if (current.length === 0) {
    const thin = p.detectThinWalls ? centreLine(island, p.outerWidth, p.height, 'thin-wall') : null;
    return { walls: thin ? [thin] : [], innerEdge: [], innerSpacing: outerSpacing };
  }
  rings.push({ depth: 0, ex: current });
  for (let depth = 1; depth < p.loops; depth++) {
    const step = depth === 1 ? (outerSpacing + innerSpacing) / 2 : innerSpacing;
    current = offsetEx(current, -step);
    if (current.length === 0) break;
    rings.push({ depth, ex: current });
  }
  const last = rings[rings.length - 1];
  const lastSpacing = last.depth === 0 ? outerSpacing : innerSpacing;
  const inside = offsetEx(last.ex, -lastSpacing / 2);

  const byDepth = rings.map(({ depth, ex }) => loopsOf(ex, depth, p));
  const walls = order(byDepth, p.sequence);
  // Pieces inside the walls too narrow for an infill line are gaps: fill them with one line
  // (PrusaSlicer's gap fill) instead of leaving holes in the part.
  const innerEdge: ExPolygon[] = [];
  for (const piece of inside) {
    if (offsetEx([piece], -GAP_FILL_SHARE * innerSpacing).length > 0) {
      innerEdge.push(piece);
      continue;
    }
    const gap = centreLine(piece, p.innerWidth, p.height, 'gap-fill');
    if (gap) walls.push(gap);
  }
  return { walls, innerEdge, innerSpacing: lastSpacing };
}

/** A piece inside the walls narrower than this share of a line spacing gets gap fill instead of infill. */
const GAP_FILL_SHARE = 0.35;

function wallRole(ring: Polygon, depth: number, p: WallParams): ExtrusionRole {
  if (depth !== 0) return 'inner-wall';
  return p.supportedBy && overhangs(ring, p.supportedBy) ? 'overhang-wall' : 'outer-wall';
}

export function loopsOf(list: ExPolygon[], depth: number, p: WallParams): Extrusion[] {
  const width = depth === 0 ? p.outerWidth : p.innerWidth;
  const mm3PerMm = crossSection(width, p.height);
  const out: Extrusion[] = [];
  const push = (ring: Polygon) => {
    if (ring.length < 6) return;
    out.push({ role: wallRole(ring, depth, p), points: closeLoop(ring), loop: true, width, height: p.height, mm3PerMm });
  };
  for (const ex of list) {
    push(ex.contour);
    for (const h of ex.holes) push(h);
  }
  return out;
}

/**
 * A loop overhangs when more than half of it runs outside the supported area. Only the supported
 * parts near the loop go to Clipper: the layer below may hold hundreds of islands (the Menger
 * sponge), and handing all of them over for every loop made this a square of their count.
 */
function overhangs(ring: Polygon, support: WallSupport): boolean {
  const box = bboxOf([ring]);
  // A loop inside the layer below and clear of its edges lies further than the growth inside the
  // grown layer: supported, whatever the grown layer's edges (the Menger sponge grows 76 of its 432
  // layers below instead of all).
  if (clearlyInside(ring, exPolygonsNear(support.islands, box))) return false;
  const near = exPolygonsNear(support.grown(), box);
  // A loop clear of the supported area's edges is wholly on one side of them (`loop-support.ts`).
  const side = sideOfSupport(ring, near);
  if (side === 'inside') return false;
  const closed = closeLoop(ring);
  const total = polylineLength(closed);
  if (side === 'outside') return total > 0;
  let inside = 0;
  for (const piece of clipPolylines([closed], near)) inside += polylineLength(piece);
  return inside < total / 2;
}

export function order(byDepth: Extrusion[][], sequence: WallSequence): Extrusion[] {
  const outer = byDepth[0];
  const inner = byDepth.slice(1).reverse().flat();
  switch (sequence) {
    case 'outer wall/inner wall':
      return [...outer, ...byDepth.slice(1).flat()];
    case 'inner-outer-inner wall': {
      // The second wall first, then the outer one, then the rest from the inside out.
      const second = byDepth[1] ?? [];
      const rest = byDepth.slice(2).reverse().flat();
      return [...second, ...outer, ...rest];
    }
    default:
      return [...inner, ...outer];
  }
}

/**
 * A region too narrow for a wall loop (an island: thin wall) or for infill (a gap between walls),
 * printed as one line along its long axis: a straight thin strip (the common thin fin, or the gap
 * along a straight wall) at its own width, or a small blob (a spire's tip, a pin's core) at the
 * width that gives its area. Long thin shapes that are not straight are left out, as the classic
 * generator does.
 */
export function centreLine(island: ExPolygon, maxWidth: number, height: number, role: 'thin-wall' | 'gap-fill'): Extrusion | null {
  const c = island.contour;
  const n = c.length >> 1;
  const area = Math.abs(signedArea(c));
  let cx = 0;
  let cy = 0;
  for (let k = 0; k < n; k++) {
    cx += c[k * 2];
    cy += c[k * 2 + 1];
  }
  cx /= n;
  cy /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let k = 0; k < n; k++) {
    const dx = c[k * 2] - cx;
    const dy = c[k * 2 + 1] - cy;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  let lo = Infinity;
  let hi = -Infinity;
  let wlo = Infinity;
  let whi = -Infinity;
  for (let k = 0; k < n; k++) {
    const dx = c[k * 2] - cx;
    const dy = c[k * 2 + 1] - cy;
    const along = dx * ux + dy * uy;
    const across = -dx * uy + dy * ux;
    lo = Math.min(lo, along);
    hi = Math.max(hi, along);
    wlo = Math.min(wlo, across);
    whi = Math.max(whi, across);
  }
  const length = hi - lo;
  const extent = whi - wlo;
  const minWidth = maxWidth * 0.25;
  const strip = length >= 2 * extent && area >= 0.8 * length * extent;
  const small = length <= 3 * maxWidth;
  if (!strip && !small) return null;
  // A strip prints at its width; a blob at the width that gives its area over its length.
  const width = strip ? extent : Math.min(Math.max(area / Math.max(length, 1e-9), minWidth), maxWidth);
  if (strip && width < minWidth) return null;
  const midAcross = (wlo + whi) / 2;
  const ox = cx - uy * midAcross;
  const oy = cy + ux * midAcross;
  const mid = (lo + hi) / 2;
  const half = Math.max((length - width) / 2, MIN_THIN_LENGTH / 2);
  const a = mid - half;
  const b = mid + half;
  const points = Float64Array.of(ox + ux * a, oy + uy * a, ox + ux * b, oy + uy * b);
  return { role, points, loop: false, width, height: height, mm3PerMm: crossSection(Math.max(width, height), height) };
}

/** Shortest thin-wall line (mm): shorter features still get a dab of this length. */
const MIN_THIN_LENGTH = 0.05;
