/**
 * Points in square cells for neighbour queries, for the medial axis (`medial-axis.ts`): which
 * boundary samples lie near a point, which axis points are kept near another.
 */

/**
 * An open-addressing table of the occupied cells (typed arrays, integer keys) with a linked list of
 * point ids per cell. A `Map` keyed by a cell number past 2^31 hashed a heap number on every
 * look-up: the look-ups were a fifth of the axis's time on the rigid3d platform. A table of every
 * cell of the points' box was slower still: a narrow piece's box is mostly empty, and clearing it
 * cost more than the hashing. The arrays are kept for the next `reset`: the axis is found for
 * thousands of pieces in a slice.
 */
export class PointGrid {
  size = 1;
  private mask = 0;
  /** 32 less the table's bits: a slot is the top bits of the cell's hash, which mix both coordinates. */
  private shift = 0;
  private cellX = new Int32Array(0);
  private cellY = new Int32Array(0);
  private head = new Int32Array(0);
  /** The id after each id in its cell's list, -1 at the end. */
  next = new Int32Array(0);

  /** Empties the grid for cells `size` wide and at most `capacity` points with ids below `capacity`. */
  reset(size: number, capacity: number): void {
    this.size = size;
    let bits = 4;
    while (1 << bits < 2 * capacity) bits++;
    const slots = 1 << bits;
    this.mask = slots - 1;
    this.shift = 32 - bits;
    if (this.head.length < slots) {
      this.cellX = new Int32Array(slots);
      this.cellY = new Int32Array(slots);
      this.head = new Int32Array(slots);
    }
    this.head.fill(-1, 0, slots);
    if (this.next.length < capacity) this.next = new Int32Array(Math.max(capacity, 2 * this.next.length));
  }

  /** The table slot of cell (cx, cy): its own, or the empty one where it would go. */
  private slot(cx: number, cy: number): number {
    let at = Math.imul(Math.imul(cx, 0x9e3779b1) ^ cy, 0x85ebca77) >>> this.shift;
    while (this.head[at] >= 0 && (this.cellX[at] !== cx || this.cellY[at] !== cy)) at = (at + 1) & this.mask;
    return at;
  }

  /** Puts point `id` first in its cell's list. */
  add(id: number, x: number, y: number): void {
    const cx = Math.floor(x / this.size);
    const cy = Math.floor(y / this.size);
    const at = this.slot(cx, cy);
    if (this.head[at] < 0) {
      this.cellX[at] = cx;
      this.cellY[at] = cy;
    }
    this.next[id] = this.head[at];
    this.head[at] = id;
  }

  /** The first point id in cell (cx, cy), -1 when it holds none; the rest follow through `next`. */
  first(cx: number, cy: number): number {
    return this.head[this.slot(cx, cy)];
  }
}
