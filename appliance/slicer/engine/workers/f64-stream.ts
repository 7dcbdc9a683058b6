/**
 * A flat Float64Array stream for moving layer data between threads: one transferable buffer
 * instead of an object graph the structured clone would walk.
 */
import type { ExPolygon } from '../geometry/types.js';

export class F64Writer {
  private buf = new Float64Array(1024);
  private n = 0;

  private reserve(extra: number): void {
    if (this.n + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.n + extra) size *= 2;
    const grown = new Float64Array(size);
    grown.set(this.buf.subarray(0, this.n));
    this.buf = grown;
  }

  num(v: number): void {
    this.reserve(1);
    this.buf[this.n++] = v;
  }

  /** A length-prefixed array. */
  array(a: Float64Array): void {
    this.reserve(a.length + 1);
    this.buf[this.n++] = a.length;
    this.buf.set(a, this.n);
    this.n += a.length;
  }

  exPolygons(list: readonly ExPolygon[]): void {
    this.num(list.length);
    for (const ex of list) {
      this.array(ex.contour);
      this.num(ex.holes.length);
      for (const h of ex.holes) this.array(h);
    }
  }

  finish(): Float64Array {
    return this.buf.slice(0, this.n);
  }
}

export class F64Reader {
  private i = 0;
  constructor(private readonly buf: Float64Array) {}

  num(): number {
    return this.buf[this.i++];
  }

  /** A view into the stream's buffer, not a copy (nothing writes to decoded geometry). */
  array(): Float64Array {
    const len = this.buf[this.i++];
    const out = this.buf.subarray(this.i, this.i + len);
    this.i += len;
    return out;
  }

  exPolygons(): ExPolygon[] {
    const count = this.num();
    const out: ExPolygon[] = new Array(count);
    for (let k = 0; k < count; k++) {
      const contour = this.array();
      const holes: Float64Array[] = new Array(this.num());
      for (let h = 0; h < holes.length; h++) holes[h] = this.array();
      out[k] = { contour, holes };
    }
    return out;
  }

  get done(): boolean {
    return this.i >= this.buf.length;
  }
}
