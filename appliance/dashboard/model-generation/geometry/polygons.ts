/**
 * Plain checks on polygons given as point lists, before they reach the geometry kernel: area,
 * whether a point is inside, and where edges cross or touch (a sweep over the edges sorted by x,
 * so a few thousand points cost milliseconds).
 */
import type { Point } from './svg-path.js';

/** Positive when the points run counter-clockwise (y up). */
export function signedArea(polygon: readonly Point[]): number {
  let twice = 0;
  for (let k = 0; k < polygon.length; k++) {
    const [a, b] = [polygon[k], polygon[(k + 1) % polygon.length]];
    twice += a[0] * b[1] - b[0] * a[1];
  }
  return twice / 2;
}

/** Even-odd test: true when the point is inside the polygon. */
export function insidePolygon(point: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let k = 0, prev = polygon.length - 1; k < polygon.length; prev = k++) {
    const [a, b] = [polygon[k], polygon[prev]];
    if (a[1] > point[1] !== b[1] > point[1] && point[0] < ((b[0] - a[0]) * (point[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

function orientation(a: Point, b: Point, c: Point): number {
  const value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return Math.abs(value) < 1e-12 ? 0 : Math.sign(value);
}

function onSegment(a: Point, b: Point, p: Point): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

/** True when the closed segments ab and cd share a point. */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const [o1, o2, o3, o4] = [orientation(a, b, c), orientation(a, b, d), orientation(c, d, a), orientation(c, d, b)];
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(a, b, c)) || (o2 === 0 && onSegment(a, b, d)) || (o3 === 0 && onSegment(c, d, a)) || (o4 === 0 && onSegment(c, d, b));
}

export interface Crossing {
  /** Polygon index and edge index (edge k runs from point k to point k + 1) of the two edges. */
  first: [number, number];
  second: [number, number];
}

/**
 * The first pair of edges (of the same polygon or of two) that cross or touch, other than
 * neighbouring edges of one polygon at their shared corner; null when there is none.
 */
export function firstCrossing(polygons: readonly (readonly Point[])[]): Crossing | null {
  interface Edge {
    polygon: number;
    index: number;
    a: Point;
    b: Point;
    minX: number;
    maxX: number;
  }
  const edges: Edge[] = [];
  polygons.forEach((polygon, p) => {
    polygon.forEach((a, k) => {
      const b = polygon[(k + 1) % polygon.length];
      edges.push({ polygon: p, index: k, a, b, minX: Math.min(a[0], b[0]), maxX: Math.max(a[0], b[0]) });
    });
  });
  edges.sort((e, f) => e.minX - f.minX);
  const neighbours = (e: Edge, f: Edge) => {
    if (e.polygon !== f.polygon) return false;
    const n = polygons[e.polygon].length;
    return (e.index + 1) % n === f.index || (f.index + 1) % n === e.index;
  };
  let active: Edge[] = [];
  for (const edge of edges) {
    active = active.filter((other) => other.maxX >= edge.minX);
    for (const other of active) {
      if (neighbours(edge, other)) {
        // Neighbours share one corner; they still overlap when they fold back along each other.
        const n = polygons[edge.polygon].length;
        const [first, second] = (edge.index + 1) % n === other.index ? [edge, other] : [other, edge];
        const folded =
          orientation(first.a, first.b, second.b) === 0 && (onSegment(first.a, first.b, second.b) || onSegment(second.a, second.b, first.a));
        if (n > 2 && folded) {
          return { first: [first.polygon, first.index], second: [second.polygon, second.index] };
        }
        continue;
      }
      if (segmentsMeet(edge.a, edge.b, other.a, other.b)) return { first: [other.polygon, other.index], second: [edge.polygon, edge.index] };
    }
    active.push(edge);
  }
  return null;
}
