/**
 * Points in a uniform grid for repeated "which remaining point is nearest" queries, with removal
 * and late insertion: ordering n paths costs about O(n) cell visits instead of O(n²) scans.
 */
import type { BBox2 } from '../../geometry/types.js';

const MAX_CELLS_PER_SIDE = 1024;

export class NearestGrid {
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;
  private readonly alive: Uint8Array;
  private readonly cells: number[][];
  private readonly minX: number;
  private readonly minY: number;
  private readonly cell: number;
  private readonly cols: number;
  private readonly rows: number;
  private live = 0;

  /** `box` must hold every point inserted later; ids run from 0 to capacity - 1. */
  constructor(box: BBox2, capacity: number) {
    this.xs = new Float64Array(capacity);
    this.ys = new Float64Array(capacity);
    this.alive = new Uint8Array(capacity);
    const w = Math.max(box.maxX - box.minX, 1e-6);
    const h = Math.max(box.maxY - box.minY, 1e-6);
    const target = Math.sqrt((w * h) / Math.max(capacity, 1));
    this.cell = Math.max(target, w / MAX_CELLS_PER_SIDE, h / MAX_CELLS_PER_SIDE, 1e-6);
    this.cols = Math.floor(w / this.cell) + 1;
    this.rows = Math.floor(h / this.cell) + 1;
    this.minX = box.minX;
    this.minY = box.minY;
    this.cells = Array.from({ length: this.cols * this.rows }, () => []);
  }

  get size(): number {
    return this.live;
  }

  insert(id: number, x: number, y: number): void {
    if (this.alive[id]) return;
    this.xs[id] = x;
    this.ys[id] = y;
    this.alive[id] = 1;
    this.live++;
    const col = Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.minX) / this.cell)));
    const row = Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.minY) / this.cell)));
    this.cells[row * this.cols + col].push(id);
  }

  /** Removed ids stay in their cell lists until a query sweeps them out. */
  remove(id: number): void {
    if (!this.alive[id]) return;
    this.alive[id] = 0;
    this.live--;
  }

  /** The live point nearest to (x, y), or -1 when none is left. */
  nearest(x: number, y: number): number {
    if (this.live === 0) return -1;
    const cx = Math.floor((x - this.minX) / this.cell);
    const cy = Math.floor((y - this.minY) / this.cell);
    const maxRing = Math.max(Math.abs(cx), Math.abs(this.cols - 1 - cx), Math.abs(cy), Math.abs(this.rows - 1 - cy));
    let best = -1;
    let bestD = Infinity;
    const visit = (col: number, row: number) => {
      if (col < 0 || row < 0 || col >= this.cols || row >= this.rows) return;
      const list = this.cells[row * this.cols + col];
      for (let k = list.length - 1; k >= 0; k--) {
        const id = list[k];
        if (!this.alive[id]) {
          list[k] = list[list.length - 1];
          list.pop();
          continue;
        }
        const d = (this.xs[id] - x) ** 2 + (this.ys[id] - y) ** 2;
        if (d < bestD || (d === bestD && id < best)) {
          bestD = d;
          best = id;
        }
      }
    };
    // Rings that cannot reach the grid are skipped; ring sides are clipped to it.
    const firstRing = Math.max(cx < 0 ? -cx : cx - this.cols + 1, cy < 0 ? -cy : cy - this.rows + 1, 0);
    for (let r = firstRing; r <= maxRing; r++) {
      if (r === 0) visit(cx, cy);
      else {
        const c0 = Math.max(cx - r, 0);
        const c1 = Math.min(cx + r, this.cols - 1);
        for (let col = c0; col <= c1; col++) {
          visit(col, cy - r);
          visit(col, cy + r);
        }
        const r0 = Math.max(cy - r + 1, 0);
        const r1 = Math.min(cy + r - 1, this.rows - 1);
        for (let row = r0; row <= r1; row++) {
          visit(cx - r, row);
          visit(cx + r, row);
        }
      }
      // Points in ring r + 1 are at least r cells away from (x, y).
      if (best >= 0 && bestD <= (r * this.cell) ** 2) break;
    }
    return best;
  }
}
