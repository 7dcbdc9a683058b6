/**
 * The fill lines of one island after clipping and before linking: open paths whose ends lie on
 * the island boundary. End 2i is the start of piece i, end 2i+1 its end.
 */
export interface Pieces {
  count: number;
  paths: Float64Array[];
  /** Boundary ring of each end, or -1 when the end is not on the boundary (it is never linked). */
  endRing: Int32Array;
  /** Arc position of each end along its ring. */
  endArc: Float64Array;
  /** Which direction of the pattern a piece belongs to (0 for single-direction patterns). */
  family: Int32Array;
  /** Index of the hatch line a piece lies on; consecutive rows are neighbours. */
  row: Int32Array;
  /** Extent along the line direction in the hatch frame, for neighbour tests between rows. */
  lo: Float64Array;
  hi: Float64Array;
}

/**
 * Where the scanline sweep (`hatch`) reports each piece it finds: from (x0, y0) to (x1, y1), its
 * ends' rings and arc positions, its family and row, and its extent along the row. The builder
 * keeps them as Pieces; a bridge's direction scoring only sums them up.
 */
export interface PieceSink {
  piece(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    startRing: number,
    startArc: number,
    endRing: number,
    endArc: number,
    family: number,
    row: number,
    lo: number,
    hi: number,
  ): void;
}

/** Where a builder starts: nothing is allocated until a piece comes (bridge scoring builds many empty ones). */
const NO_INTS = new Int32Array(0);
const NO_DOUBLES = new Float64Array(0);
/** Pieces a builder first makes room for. */
const FIRST_CAPACITY = 16;

export class PiecesBuilder implements PieceSink {
  private n = 0;
  private readonly paths: Float64Array[] = [];
  private endRing: Int32Array = NO_INTS;
  private endArc: Float64Array = NO_DOUBLES;
  private family: Int32Array = NO_INTS;
  private row: Int32Array = NO_INTS;
  private lo: Float64Array = NO_DOUBLES;
  private hi: Float64Array = NO_DOUBLES;

  get count(): number {
    return this.n;
  }

  piece(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    startRing: number,
    startArc: number,
    endRing: number,
    endArc: number,
    family: number,
    row: number,
    lo: number,
    hi: number,
  ): void {
    const path = new Float64Array(4);
    path[0] = x0;
    path[1] = y0;
    path[2] = x1;
    path[3] = y1;
    this.add(path, startRing, startArc, endRing, endArc, family, row, lo, hi);
  }

  /** A piece whose path is given (a clipped polyline of any length). */
  add(
    path: Float64Array,
    startRing: number,
    startArc: number,
    endRing: number,
    endArc: number,
    family: number,
    row: number,
    lo: number,
    hi: number,
  ): void {
    if (this.n === this.family.length) this.grow();
    const i = this.n++;
    this.paths.push(path);
    this.endRing[i * 2] = startRing;
    this.endRing[i * 2 + 1] = endRing;
    this.endArc[i * 2] = startArc;
    this.endArc[i * 2 + 1] = endArc;
    this.family[i] = family;
    this.row[i] = row;
    this.lo[i] = lo;
    this.hi[i] = hi;
  }

  finish(): Pieces {
    const n = this.n;
    return {
      count: n,
      paths: this.paths,
      // Views, not copies: the builder is done with its arrays, and the pieces are read by index.
      endRing: this.endRing.subarray(0, n * 2),
      endArc: this.endArc.subarray(0, n * 2),
      family: this.family.subarray(0, n),
      row: this.row.subarray(0, n),
      lo: this.lo.subarray(0, n),
      hi: this.hi.subarray(0, n),
    };
  }

  private grow(): void {
    const cap = Math.max(this.family.length * 2, FIRST_CAPACITY);
    this.endRing = resizedI32(this.endRing, cap * 2);
    this.endArc = resizedF64(this.endArc, cap * 2);
    this.family = resizedI32(this.family, cap);
    this.row = resizedI32(this.row, cap);
    this.lo = resizedF64(this.lo, cap);
    this.hi = resizedF64(this.hi, cap);
  }
}

function resizedI32(a: Int32Array, size: number): Int32Array {
  const out = new Int32Array(size);
  out.set(a);
  return out;
}

function resizedF64(a: Float64Array, size: number): Float64Array {
  const out = new Float64Array(size);
  out.set(a);
  return out;
}
