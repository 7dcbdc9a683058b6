/**
 * Append-only typed arrays for loaders that do not know their final size (ASCII STL, 3MF).
 * Capacity doubles, so appending n values costs O(n) amortised.
 */

export class GrowableFloat32 {
  private data: Float32Array;
  length = 0;

  constructor(initialCapacity = 1024) {
    this.data = new Float32Array(Math.max(16, initialCapacity));
  }

  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) this.grow(this.length + 3);
    const d = this.data;
    const n = this.length;
    d[n] = a;
    d[n + 1] = b;
    d[n + 2] = c;
    this.length = n + 3;
  }

  /** The backing array; only the first `length` values are meaningful, and it is replaced on growth. */
  get values(): Float32Array {
    return this.data;
  }

  /** A right-sized copy of the content. */
  toArray(): Float32Array {
    return this.data.slice(0, this.length);
  }

  private grow(minCapacity: number): void {
    const next = new Float32Array(Math.max(minCapacity, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

export class GrowableUint32 {
  private data: Uint32Array;
  length = 0;

  constructor(initialCapacity = 1024) {
    this.data = new Uint32Array(Math.max(16, initialCapacity));
  }

  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) this.grow(this.length + 3);
    const d = this.data;
    const n = this.length;
    d[n] = a;
    d[n + 1] = b;
    d[n + 2] = c;
    this.length = n + 3;
  }

  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }

  private grow(minCapacity: number): void {
    const next = new Uint32Array(Math.max(minCapacity, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}
