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
  /** Told, before the pieces come, how many there may be at most. */
  reserve?(more: number): void;
}

/** Pieces a builder first makes room for. */
const FIRST_CAPACITY = 16;
/** Bytes a piece takes in a builder's storage: two ends' arcs, lo and hi (doubles), two ends' rings, family and row (integers). */
const PIECE_BYTES = 48;

/**
 * The arrays of a builder, all views of one buffer of `capacity` pieces: one allocation outside
 * the heap when it grows, not six (fills grow builders by the thousand per slice).
 */
class PieceArrays {
  readonly endArc: Float64Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  readonly endRing: Int32Array;
  readonly family: Int32Array;
  readonly row: Int32Array;

  constructor(readonly capacity: number) {
    const buffer = new ArrayBuffer(capacity * PIECE_BYTES);
    this.endArc = new Float64Array(buffer, 0, capacity * 2);
    this.lo = new Float64Array(buffer, capacity * 16, capacity);
    this.hi = new Float64Array(buffer, capacity * 24, capacity);
    this.endRing = new Int32Array(buffer, capacity * 32, capacity * 2);
    this.family = new Int32Array(buffer, capacity * 40, capacity);
    this.row = new Int32Array(buffer, capacity * 44, capacity);
  }

  /** Copies the first `n` pieces of `from`. */
  copy(from: PieceArrays, n: number): void {
    this.endArc.set(from.endArc.subarray(0, n * 2));
    this.lo.set(from.lo.subarray(0, n));
    this.hi.set(from.hi.subarray(0, n));
    this.endRing.set(from.endRing.subarray(0, n * 2));
    this.family.set(from.family.subarray(0, n));
    this.row.set(from.row.subarray(0, n));
  }
}

/** Where a builder starts: nothing is allocated until a piece comes. */
const NO_PIECES = new PieceArrays(0);

export class PiecesBuilder implements PieceSink {
  private n = 0;
  private readonly paths: Float64Array[] = [];
  private a = NO_PIECES;

  get count(): number {
    return this.n;
  }

  /** Makes room for `more` pieces at once (hatch knows how many its rows can give). */
  reserve(more: number): void {
    if (this.n + more > this.a.capacity) this.grow(this.n + more);
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
    if (this.n === this.a.capacity) this.grow(this.n + 1);
    const i = this.n++;
    const a = this.a;
    this.paths.push(path);
    a.endRing[i * 2] = startRing;
    a.endRing[i * 2 + 1] = endRing;
    a.endArc[i * 2] = startArc;
    a.endArc[i * 2 + 1] = endArc;
    a.family[i] = family;
    a.row[i] = row;
    a.lo[i] = lo;
    a.hi[i] = hi;
  }

  finish(): Pieces {
    const n = this.n;
    const a = this.a;
    return {
      count: n,
      paths: this.paths,
      // Views, not copies: the builder is done with its arrays, and the pieces are read by index.
      endRing: a.endRing.subarray(0, n * 2),
      endArc: a.endArc.subarray(0, n * 2),
      family: a.family.subarray(0, n),
      row: a.row.subarray(0, n),
      lo: a.lo.subarray(0, n),
      hi: a.hi.subarray(0, n),
    };
  }

  private grow(min: number): void {
    const grown = new PieceArrays(Math.max(min, 2 * this.a.capacity, FIRST_CAPACITY));
    grown.copy(this.a, this.n);
    this.a = grown;
  }
}
