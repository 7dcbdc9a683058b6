/** Building and transforming open paths without allocating an object per point. */
import type { Polyline } from './types.js';

/** Points closer than this (mm) to the previous one are not repeated in a path. */
const SAME_POINT = 1e-7;

/** A growable flat x,y buffer; consecutive duplicate points are dropped as they arrive. */
export class PathBuilder {
  private data: Float64Array;
  private used = 0;

  constructor(capacityPoints = 64) {
    this.data = new Float64Array(Math.max(4, capacityPoints * 2));
  }

  get pointCount(): number {
    return this.used >> 1;
  }

  push(x: number, y: number): void {
    const n = this.used;
    if (n >= 2 && Math.abs(this.data[n - 2] - x) < SAME_POINT && Math.abs(this.data[n - 1] - y) < SAME_POINT) return;
    if (n + 2 > this.data.length) this.grow(n + 2);
    this.data[n] = x;
    this.data[n + 1] = y;
    this.used = n + 2;
  }

  /** Appends a whole path, forwards or backwards. */
  pushPath(path: Float64Array, backwards = false): void {
    this.pushRange(path, 0, path.length, backwards);
  }

  /** Appends the points of `data` from index `from` up to `to` (x,y pairs), forwards or backwards. */
  pushRange(data: Float64Array, from: number, to: number, backwards = false): void {
    if (this.used + to - from > this.data.length) this.grow(this.used + to - from);
    if (backwards) for (let k = to - 2; k >= from; k -= 2) this.push(data[k], data[k + 1]);
    else for (let k = from; k < to; k += 2) this.push(data[k], data[k + 1]);
  }

  /** A copy of the points so far; the builder stays usable. */
  toArray(): Float64Array {
    return this.data.slice(0, this.used);
  }

  /** The points so far as a view of the builder's storage, valid until the builder changes (no copy). */
  view(): Float64Array {
    return this.data.subarray(0, this.used);
  }

  clear(): void {
    this.used = 0;
  }

  private grow(min: number): void {
    const next = new Float64Array(Math.max(min, this.data.length * 2));
    next.set(this.data.subarray(0, this.used));
    this.data = next;
  }
}

/** The path rotated counter-clockwise by `angle` radians about the origin. */
export function rotatePath(path: Float64Array, angle: number): Float64Array {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const out = new Float64Array(path.length);
  for (let k = 0; k < path.length; k += 2) {
    const x = path[k];
    const y = path[k + 1];
    out[k] = x * c - y * s;
    out[k + 1] = x * s + y * c;
  }
  return out;
}

/** Rotates every path of a list in place (the arrays are reused). */
export function rotatePathsInPlace(paths: readonly Polyline[], angle: number): void {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  for (const path of paths) {
    for (let k = 0; k < path.length; k += 2) {
      const x = path[k];
      const y = path[k + 1];
      path[k] = x * c - y * s;
      path[k + 1] = x * s + y * c;
    }
  }
}

/** Whether an open path is at least `min` long; stops measuring as soon as it is. */
export function reachesLength(path: Float64Array, min: number): boolean {
  let len = 0;
  for (let k = 2; k < path.length; k += 2) {
    const dx = path[k] - path[k - 2];
    const dy = path[k + 1] - path[k - 1];
    len += Math.sqrt(dx * dx + dy * dy);
    if (len >= min) return true;
  }
  return len >= min;
}
