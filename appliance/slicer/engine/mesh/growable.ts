/**
 * Append-only typed arrays for loaders that do not know their final size (ASCII STL, 3MF).
 * Capacity doubles, so appending n values costs O(n) amortised.
 */

type Typed = Float32Array | Uint32Array;

class Growable<T extends Typed> {
  private data: T;
  length = 0;

  constructor(
    private readonly make: (size: number) => T,
    initialCapacity: number,
  ) {
    this.data = make(Math.max(16, initialCapacity));
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
  get values(): T {
    return this.data;
  }

  /** A right-sized copy of the content. */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }

  private grow(minCapacity: number): void {
    const next = this.make(Math.max(minCapacity, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

export class GrowableFloat32 extends Growable<Float32Array> {
  constructor(initialCapacity = 1024) {
    super((n) => new Float32Array(n), initialCapacity);
  }
}

export class GrowableUint32 extends Growable<Uint32Array> {
  constructor(initialCapacity = 1024) {
    super((n) => new Uint32Array(n), initialCapacity);
  }
}
