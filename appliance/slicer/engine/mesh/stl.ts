/**
 * STL readers. The binary/ASCII decision is made by size (84 + 50 n bytes), never by the word
 * "solid", which many binary writers put in their header. Both readers weld exact duplicate
 * points while reading, so the result is an indexed mesh; degenerate facets are kept for repair
 * to count and drop.
 */
import { DecimalReader } from './decimal.js';
import { badModel } from './errors.js';
import { GrowableUint32 } from './growable.js';
import type { IndexedMesh } from './types.js';
import { ExactVertexWelder } from './weld.js';

const HEADER_BYTES = 84;
const FACET_BYTES = 50;

const kw = (s: string): Uint8Array => new TextEncoder().encode(s);
const SOLID = kw('solid');
const ENDSOLID = kw('endsolid');
const FACET = kw('facet');
const ENDFACET = kw('endfacet');
const OUTER = kw('outer');
const LOOP = kw('loop');
const ENDLOOP = kw('endloop');
const VERTEX = kw('vertex');

function isSpace(b: number): boolean {
  return b === 32 || (b >= 9 && b <= 13);
}

/** Case-insensitive comparison of bytes[start, end) with a lower-case keyword. */
function wordIs(bytes: Uint8Array, start: number, end: number, word: Uint8Array): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if ((bytes[start + k] | 0x20) !== word[k]) return false;
  return true;
}

export interface StlResult {
  mesh: IndexedMesh;
  warnings: string[];
}

function announcedFacets(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
}

/** True when the size is exactly that of a binary STL with the facet count its header announces. */
export function isBinaryStlSize(bytes: Uint8Array): boolean {
  return bytes.length >= HEADER_BYTES && HEADER_BYTES + FACET_BYTES * announcedFacets(bytes) === bytes.length;
}

/** Text that starts with "solid" and has no binary control bytes in its first kilobyte. */
export function looksLikeAsciiStl(bytes: Uint8Array): boolean {
  let p = 0;
  while (p < bytes.length && isSpace(bytes[p])) p++;
  if (!wordIs(bytes, p, Math.min(bytes.length, p + 5), SOLID)) return false;
  const end = Math.min(bytes.length, 1024);
  for (let k = 0; k < end; k++) {
    const b = bytes[k];
    if (b < 9 || (b > 13 && b < 32)) return false;
  }
  return true;
}

/**
 * A file whose size does not match its facet count but that is still probably a binary STL:
 * named .stl, or its first facet holds a unit (or zero) normal and moderate coordinates.
 */
export function looksLikeBinaryStl(bytes: Uint8Array, fileName: string): boolean {
  if (bytes.length < HEADER_BYTES) return false;
  if (/\.stl$/i.test(fileName)) return true;
  if (bytes.length < HEADER_BYTES + FACET_BYTES || announcedFacets(bytes) === 0) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const facet = Array.from({ length: 12 }, (_, k) => view.getFloat32(HEADER_BYTES + 4 * k, true));
  if (!facet.every((v) => Number.isFinite(v) && Math.abs(v) < 1e5)) return false;
  const normalLength2 = facet[0] ** 2 + facet[1] ** 2 + facet[2] ** 2;
  return normalLength2 === 0 || Math.abs(normalLength2 - 1) < 0.02;
}

export function parseBinaryStl(bytes: Uint8Array): StlResult {
  if (bytes.length < HEADER_BYTES) {
    throw badModel(`binary STL is ${bytes.length} bytes long, shorter than its 84-byte header`);
  }
  const count = announcedFacets(bytes);
  const expected = HEADER_BYTES + FACET_BYTES * count;
  const warnings: string[] = [];
  if (bytes.length < expected) {
    const present = Math.floor((bytes.length - HEADER_BYTES) / FACET_BYTES);
    throw badModel(
      `truncated binary STL: the header announces ${count} triangles (${expected} bytes) but the file has ` +
        `${bytes.length} bytes, ${expected - bytes.length} bytes missing (${present} complete triangles present)`,
      { announcedTriangles: count, missingBytes: expected - bytes.length },
    );
  }
  if (bytes.length > expected) {
    warnings.push(`binary STL: ignored ${bytes.length - expected} bytes after the ${count} triangles its header announces`);
  }

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const welder = new ExactVertexWelder(Math.max(64, count));
  const indices = new Uint32Array(count * 3);
  for (let t = 0; t < count; t++) {
    const base = HEADER_BYTES + t * FACET_BYTES + 12;
    for (let corner = 0; corner < 3; corner++) {
      const o = base + corner * 12;
      const x = view.getFloat32(o, true);
      const y = view.getFloat32(o + 4, true);
      const z = view.getFloat32(o + 8, true);
      // x - x is NaN for NaN and both infinities, 0 for every finite number.
      if (x - x !== 0 || y - y !== 0 || z - z !== 0) {
        throw badModel(`binary STL: triangle ${t} (0-based) has a non-finite vertex (${x}, ${y}, ${z})`);
      }
      indices[t * 3 + corner] = welder.add(x, y, z);
    }
  }
  return { mesh: { vertices: welder.vertices(), indices }, warnings };
}

function lineAt(bytes: Uint8Array, pos: number): number {
  let line = 1;
  for (let k = 0; k < pos && k < bytes.length; k++) if (bytes[k] === 10) line++;
  return line;
}

function skipLine(bytes: Uint8Array, pos: number): number {
  const nl = bytes.indexOf(10, pos);
  return nl < 0 ? bytes.length : nl + 1;
}

export function parseAsciiStl(bytes: Uint8Array): StlResult {
  const n = bytes.length;
  // About 250 bytes of text per facet and half as many distinct points as facets in a closed mesh.
  const welder = new ExactVertexWelder(Math.max(64, Math.floor(n / 500)));
  const indices = new GrowableUint32(Math.max(64, Math.floor(n / 80)));
  const loop: number[] = [];
  const xyz = [0, 0, 0];
  const decimal = new DecimalReader();
  let inLoop = false;
  let facets = 0;
  let pos = 0;
  const fail = (at: number, what: string): never => {
    throw badModel(`ASCII STL, line ${lineAt(bytes, at)}: ${what}`);
  };

  for (;;) {
    while (pos < n && isSpace(bytes[pos])) pos++;
    if (pos >= n) break;
    const start = pos;
    while (pos < n && !isSpace(bytes[pos])) pos++;

    if (wordIs(bytes, start, pos, VERTEX)) {
      if (!inLoop) fail(start, '"vertex" outside an "outer loop"');
      for (let axis = 0; axis < 3; axis++) {
        while (pos < n && (bytes[pos] === 32 || bytes[pos] === 9)) pos++;
        const value = decimal.read(bytes, pos, n);
        if (value - value !== 0 || (decimal.end < n && !isSpace(bytes[decimal.end]))) {
          const token = new TextDecoder().decode(bytes.subarray(pos, Math.min(n, pos + 24))).split(/\s/)[0];
          fail(pos, `triangle ${facets} (0-based) has a vertex coordinate that is not a finite number ("${token}")`);
        }
        xyz[axis] = value;
        pos = decimal.end;
      }
      loop.push(welder.add(xyz[0], xyz[1], xyz[2]));
    } else if (wordIs(bytes, start, pos, FACET)) {
      pos = skipLine(bytes, pos);
    } else if (wordIs(bytes, start, pos, OUTER)) {
      while (pos < n && isSpace(bytes[pos])) pos++;
      const loopStart = pos;
      while (pos < n && !isSpace(bytes[pos])) pos++;
      if (!wordIs(bytes, loopStart, pos, LOOP)) fail(loopStart, 'expected "loop" after "outer"');
      inLoop = true;
      loop.length = 0;
    } else if (wordIs(bytes, start, pos, ENDLOOP)) {
      if (!inLoop) fail(start, '"endloop" without "outer loop"');
      if (loop.length < 3) fail(start, `triangle ${facets} (0-based) has ${loop.length} vertices, at least 3 are needed`);
      // Some writers put polygons in one facet; a fan keeps them printable.
      for (let k = 1; k + 1 < loop.length; k++) indices.push3(loop[0], loop[k], loop[k + 1]);
      facets++;
      inLoop = false;
    } else if (wordIs(bytes, start, pos, ENDFACET)) {
      if (inLoop) fail(start, '"endfacet" inside an open "outer loop"');
    } else if (wordIs(bytes, start, pos, SOLID) || wordIs(bytes, start, pos, ENDSOLID)) {
      pos = skipLine(bytes, pos);
    } else {
      const token = new TextDecoder().decode(bytes.subarray(start, Math.min(pos, start + 24)));
      fail(start, `unexpected "${token}"`);
    }
  }
  if (inLoop) fail(n, `the file ends inside triangle ${facets} (0-based); it looks truncated`);
  return { mesh: { vertices: welder.vertices(), indices: indices.toArray() }, warnings: [] };
}
