/**
 * Vertex welding with open-addressing hash tables over typed arrays.
 * Loaders weld exact duplicates (STL repeats every shared corner); repair welds points that
 * differ only by float noise, within a tolerance.
 */
import { GrowableFloat32 } from './growable.js';

const scratchFloat = new Float32Array(1);
const scratchBits = new Uint32Array(scratchFloat.buffer);

function floatBits(v: number): number {
  scratchFloat[0] = v;
  return scratchBits[0];
}

function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

function tableSizeFor(count: number): number {
  let size = 64;
  while (size < count * 2) size *= 2;
  return size;
}

/** Gives each distinct float32 point one index, in first-seen order. */
export class ExactVertexWelder {
  private readonly coords: GrowableFloat32;
  private table: Int32Array;
  private count = 0;

  constructor(expectedVertices = 1024) {
    this.coords = new GrowableFloat32(expectedVertices * 3);
    this.table = new Int32Array(tableSizeFor(expectedVertices)).fill(-1);
  }

  get vertexCount(): number {
    return this.count;
  }

  /** Index of the point (x, y, z) rounded to float32; coordinates must be finite. */
  add(x: number, y: number, z: number): number {
    // Adding 0 turns -0 into +0, so both signs of zero share one bit pattern and one slot.
    const fx = Math.fround(x) + 0;
    const fy = Math.fround(y) + 0;
    const fz = Math.fround(z) + 0;
    const mask = this.table.length - 1;
    let slot = hash3(floatBits(fx), floatBits(fy), floatBits(fz)) & mask;
    const table = this.table;
    const c = this.coords.values;
    for (;;) {
      const v = table[slot];
      if (v < 0) break;
      const k = v * 3;
      if (c[k] === fx && c[k + 1] === fy && c[k + 2] === fz) return v;
      slot = (slot + 1) & mask;
    }
    const index = this.count++;
    table[slot] = index;
    this.coords.push3(fx, fy, fz);
    if (this.count * 2 > table.length) this.rehash();
    return index;
  }

  vertices(): Float32Array {
    return this.coords.toArray();
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    const c = this.coords.values;
    for (let v = 0; v < this.count; v++) {
      const k = v * 3;
      let slot = hash3(floatBits(c[k]), floatBits(c[k + 1]), floatBits(c[k + 2])) & mask;
      while (table[slot] >= 0) slot = (slot + 1) & mask;
      table[slot] = v;
    }
    this.table = table;
  }
}

export interface ToleranceWeld {
  /** Welded points, xyz each; every one is the first input point of its cluster. */
  vertices: Float32Array;
  /** For each input vertex, its index in `vertices`. */
  remap: Uint32Array;
}

/**
 * Merges points closer than `tolerance` on every axis into the first of them.
 * Space is cut into cubes of the tolerance's size; a cube can hold only one representative
 * (any two points in one cube are within tolerance), and a point near a cube face also looks
 * into the neighbouring cube on that side, so 8 probes per point find every candidate.
 */
export function weldWithinTolerance(input: Float32Array, tolerance: number): ToleranceWeld {
  const n = input.length / 3;
  const inv = 1 / tolerance;
  const table = new Int32Array(tableSizeFor(n)).fill(-1);
  const mask = table.length - 1;
  const repCells = new Int32Array(n * 3);
  const out = new Float32Array(n * 3);
  const remap = new Uint32Array(n);
  const cell = new Int32Array(6);
  let reps = 0;

  for (let v = 0; v < n; v++) {
    const x = input[v * 3];
    const y = input[v * 3 + 1];
    const z = input[v * 3 + 2];
    const gx = x * inv;
    const gy = y * inv;
    const gz = z * inv;
    cell[0] = Math.floor(gx);
    cell[1] = Math.floor(gy);
    cell[2] = Math.floor(gz);
    cell[3] = gx - cell[0] < 0.5 ? cell[0] - 1 : cell[0] + 1;
    cell[4] = gy - cell[1] < 0.5 ? cell[1] - 1 : cell[1] + 1;
    cell[5] = gz - cell[2] < 0.5 ? cell[2] - 1 : cell[2] + 1;

    let found = -1;
    for (let probe = 0; probe < 8 && found < 0; probe++) {
      const cx = cell[probe & 1 ? 3 : 0];
      const cy = cell[probe & 2 ? 4 : 1];
      const cz = cell[probe & 4 ? 5 : 2];
      let slot = hash3(cx, cy, cz) & mask;
      for (;;) {
        const r = table[slot];
        if (r < 0) break;
        const k = r * 3;
        if (repCells[k] === cx && repCells[k + 1] === cy && repCells[k + 2] === cz) {
          if (Math.abs(out[k] - x) <= tolerance && Math.abs(out[k + 1] - y) <= tolerance && Math.abs(out[k + 2] - z) <= tolerance) {
            found = r;
          }
          break;
        }
        slot = (slot + 1) & mask;
      }
    }

    if (found < 0) {
      found = reps++;
      const k = found * 3;
      out[k] = x;
      out[k + 1] = y;
      out[k + 2] = z;
      repCells[k] = cell[0];
      repCells[k + 1] = cell[1];
      repCells[k + 2] = cell[2];
      let slot = hash3(cell[0], cell[1], cell[2]) & mask;
      while (table[slot] >= 0) slot = (slot + 1) & mask;
      table[slot] = found;
    }
    remap[v] = found;
  }
  return { vertices: out.slice(0, reps * 3), remap };
}
