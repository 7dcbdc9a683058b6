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

export class PiecesBuilder {
  private n = 0;
  private readonly paths: Float64Array[] = [];
  private endRing: Int32Array = new Int32Array(32);
  private endArc: Float64Array = new Float64Array(32);
  private family: Int32Array = new Int32Array(16);
  private row: Int32Array = new Int32Array(16);
  private lo: Float64Array = new Float64Array(16);
  private hi: Float64Array = new Float64Array(16);

  get count(): number {
    return this.n;
  }

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
      endRing: this.endRing.slice(0, n * 2),
      endArc: this.endArc.slice(0, n * 2),
      family: this.family.slice(0, n),
      row: this.row.slice(0, n),
      lo: this.lo.slice(0, n),
      hi: this.hi.slice(0, n),
    };
  }

  private grow(): void {
    const cap = this.family.length * 2;
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
