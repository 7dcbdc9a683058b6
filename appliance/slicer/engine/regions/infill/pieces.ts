/**
 * The fill lines of one island after clipping and before linking: open paths whose ends lie on
 * the island boundary. End 2i is the start of piece i, end 2i+1 its end.
 */
export interface Pieces {
  count: number;
  /**
   * The points of every piece, one after the other: piece p's x,y pairs are `coords[start[p]]` up to
   * `coords[start[p + 1]]` (`piecePath`). One array, not one per piece: a layer's fills are
   * thousands of two-point pieces, and a typed array each was the largest garbage of the sweep.
   */
  coords: Float64Array;
  start: Int32Array;
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

/** The points of piece `p` (a view, no copy). */
export function piecePath(pieces: Pieces, p: number): Float64Array {
  return pieces.coords.subarray(pieces.start[p], pieces.start[p + 1]);
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
/**
 * Bytes a piece takes in a builder's storage: two ends' arcs, lo and hi (doubles), two ends'
 * rings, family, row and where its points start (integers).
 */
const PIECE_BYTES = 52;
/** Doubles of point storage a builder first makes room for (two-point pieces: 4 each). */
const FIRST_COORDS = 64;

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
  /** Where each piece's points start in the builder's coordinates, and one past the last piece's. */
  readonly start: Int32Array;

  constructor(readonly capacity: number) {
    const buffer = new ArrayBuffer(capacity * PIECE_BYTES + 4);
    this.endArc = new Float64Array(buffer, 0, capacity * 2);
    this.lo = new Float64Array(buffer, capacity * 16, capacity);
    this.hi = new Float64Array(buffer, capacity * 24, capacity);
    this.endRing = new Int32Array(buffer, capacity * 32, capacity * 2);
    this.family = new Int32Array(buffer, capacity * 40, capacity);
    this.row = new Int32Array(buffer, capacity * 44, capacity);
    this.start = new Int32Array(buffer, capacity * 48, capacity + 1);
  }

  /** Copies the first `n` pieces of `from`. */
  copy(from: PieceArrays, n: number): void {
    this.endArc.set(from.endArc.subarray(0, n * 2));
    this.lo.set(from.lo.subarray(0, n));
    this.hi.set(from.hi.subarray(0, n));
    this.endRing.set(from.endRing.subarray(0, n * 2));
    this.family.set(from.family.subarray(0, n));
    this.row.set(from.row.subarray(0, n));
    this.start.set(from.start.subarray(0, n + 1));
  }
}

/** Pieces whose storage a cleared builder keeps (about 350 kB with their points). */
const KEPT_PIECES = 4096;

/** Where a builder starts: nothing is allocated until a piece comes. */
const NO_PIECES = new PieceArrays(0);

export class PiecesBuilder implements PieceSink {
  private n = 0;
  private coords = new Float64Array(0);
  private used = 0;
  private a = NO_PIECES;

  get count(): number {
    return this.n;
  }

  /** Makes room for `more` pieces at once (hatch knows how many its rows can give). */
  reserve(more: number): void {
    if (this.n + more > this.a.capacity) this.grow(this.n + more);
    this.room(4 * more);
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
    // The fields are written here, not handed to a shared method: numbers passed to a call that
    // is not inlined are boxed, and the sweep reports thousands of pieces a layer.
    const i = this.slot(4);
    const c = this.coords;
    const u = this.used - 4;
    c[u] = x0;
    c[u + 1] = y0;
    c[u + 2] = x1;
    c[u + 3] = y1;
    const a = this.a;
    a.endRing[i * 2] = startRing;
    a.endRing[i * 2 + 1] = endRing;
    a.endArc[i * 2] = startArc;
    a.endArc[i * 2 + 1] = endArc;
    a.family[i] = family;
    a.row[i] = row;
    a.lo[i] = lo;
    a.hi[i] = hi;
  }

  /** A piece whose path is given (a clipped polyline of any length); its points are copied. */
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
    const i = this.slot(path.length);
    this.coords.set(path, this.used - path.length);
    const a = this.a;
    a.endRing[i * 2] = startRing;
    a.endRing[i * 2 + 1] = endRing;
    a.endArc[i * 2] = startArc;
    a.endArc[i * 2 + 1] = endArc;
    a.family[i] = family;
    a.row[i] = row;
    a.lo[i] = lo;
    a.hi[i] = hi;
  }

  /**
   * Starts again with no pieces, keeping the storage (the Pieces finished before are overwritten):
   * a builder used island after island makes no arrays once it has room. Storage past
   * `KEPT_PIECES` pieces is let go, so one large fill does not hold its room for the rest of a slice.
   */
  clear(): void {
    this.n = 0;
    this.used = 0;
    if (this.a.capacity > KEPT_PIECES) {
      this.a = NO_PIECES;
      this.coords = new Float64Array(0);
    }
  }

  finish(): Pieces {
    const n = this.n;
    const a = this.a;
    // Views, not copies: the builder is done with its arrays, and the pieces are read by index.
    return {
      count: n,
      coords: this.coords.subarray(0, this.used),
      start: a.start.subarray(0, n + 1),
      endRing: a.endRing.subarray(0, n * 2),
      endArc: a.endArc.subarray(0, n * 2),
      family: a.family.subarray(0, n),
      row: a.row.subarray(0, n),
      lo: a.lo.subarray(0, n),
      hi: a.hi.subarray(0, n),
    };
  }

  /** Makes room for one more piece of `doubles` coordinates, takes them and returns the piece's index. */
  private slot(doubles: number): number {
    if (this.n === this.a.capacity) this.grow(this.n + 1);
    this.room(doubles);
    const i = this.n++;
    this.used += doubles;
    this.a.start[i + 1] = this.used;
    return i;
  }

  /** Makes room for `more` doubles of points. */
  private room(more: number): void {
    if (this.used + more <= this.coords.length) return;
    const grown = new Float64Array(Math.max(this.used + more, 2 * this.coords.length, FIRST_COORDS));
    grown.set(this.coords.subarray(0, this.used));
    this.coords = grown;
  }

  private grow(min: number): void {
    const grown = new PieceArrays(Math.max(min, 2 * this.a.capacity, FIRST_CAPACITY));
    grown.copy(this.a, this.n);
    this.a = grown;
  }
}
