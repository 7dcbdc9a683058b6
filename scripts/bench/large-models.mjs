// Models outside the corpus for `bench-slice.mjs --large`, made on this machine instead of kept as
// big binaries in the repository: a scan-like mesh of millions of triangles generated in code, and
// a high-resolution CSG model rendered by Debian's `openscad`. Both are deterministic: the same
// bytes on every machine with the same openscad release.
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const OPENSCAD = '/usr/bin/openscad';

/** A bust-sized surface: 100 × 84 mm wide, 150 mm tall before its displacement. */
const SCAN_RADII = [50, 42, 75];

/**
 * Smooth noise on the unit sphere: a sum of plane waves with fixed pseudo-random directions, four
 * octaves from large lumps (±6 %) down to tool-mark ripples (±0.4 %). A function of the direction
 * alone, so the surface closes over the parameterisation's seam and poles.
 */
function waveField() {
  let seed = 0x2f6b1d3;
  const random = () => {
    // xorshift32: reproducible, no dependency.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x100000000;
  };
  const waves = [];
  for (const [frequency, amplitude, count] of [
    [2, 0.03, 4],
    [7, 0.01, 6],
    [23, 0.003, 8],
    [71, 0.001, 8],
  ]) {
    for (let k = 0; k < count; k++) {
      const z = 2 * random() - 1;
      const a = 2 * Math.PI * random();
      const r = Math.sqrt(1 - z * z);
      waves.push([frequency * r * Math.cos(a), frequency * r * Math.sin(a), frequency * z, 2 * Math.PI * random(), amplitude]);
    }
  }
  return (x, y, z) => {
    let sum = 0;
    for (const [fx, fy, fz, phase, amplitude] of waves) sum += amplitude * Math.sin(fx * x + fy * y + fz * z + phase);
    return sum;
  };
}

/** Sensor noise of a scanner: ±0.03 mm per point, from an integer hash of the point's index. */
function jitter(index) {
  let h = Math.imul(index ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return ((h >>> 0) / 0x100000000 - 0.5) * 0.06;
}

/**
 * Vertices of the scan: `rings` latitude rings of `segments` points between two poles. A star-shaped
 * surface (radius a function of the direction), so it never crosses itself; a waist at the neck and
 * a flat cut at the bottom as a scanned bust on its base has.
 */
function scanVertices(rings, segments) {
  const field = waveField();
  const count = 2 + rings * segments;
  const xyz = new Float32Array(count * 3);
  const put = (index, dx, dy, dz) => {
    const neck = 1 - 0.28 * Math.exp(-(((dz - 0.35) / 0.18) ** 2));
    const r = neck * (1 + field(dx, dy, dz)) + jitter(index) / SCAN_RADII[0];
    xyz[index * 3] = dx * SCAN_RADII[0] * r;
    xyz[index * 3 + 1] = dy * SCAN_RADII[1] * r;
    // The lower third is cut flat: a base to stand on, as scans of busts are trimmed.
    xyz[index * 3 + 2] = Math.max(dz * SCAN_RADII[2] * r, -0.6 * SCAN_RADII[2]);
  };
  put(0, 0, 0, 1);
  put(count - 1, 0, 0, -1);
  for (let ring = 0; ring < rings; ring++) {
    const polar = (Math.PI * (ring + 1)) / (rings + 1);
    const s = Math.sin(polar);
    for (let seg = 0; seg < segments; seg++) {
      const azimuth = (2 * Math.PI * seg) / segments;
      put(1 + ring * segments + seg, s * Math.cos(azimuth), s * Math.sin(azimuth), Math.cos(polar));
    }
  }
  return xyz;
}

/**
 * Writes the scan-like mesh as binary STL: 2 · segments · rings triangles, outward facing, with
 * their normals. Written in 1 MB pieces, so a 150 MB file never sits in memory.
 */
export function writeScanStl(path, { rings = 1000, segments = 1500 } = {}) {
  const xyz = scanVertices(rings, segments);
  const last = 1 + rings * segments;
  const triangles = 2 * segments * rings;
  const chunk = Buffer.alloc(50 * 20000);
  let used = 0;
  const fd = openSync(path, 'w');
  const flush = () => {
    writeSync(fd, chunk, 0, used);
    used = 0;
  };
  const facet = (a, b, c) => {
    const ax = xyz[a * 3];
    const ay = xyz[a * 3 + 1];
    const az = xyz[a * 3 + 2];
    const ux = xyz[b * 3] - ax;
    const uy = xyz[b * 3 + 1] - ay;
    const uz = xyz[b * 3 + 2] - az;
    const vx = xyz[c * 3] - ax;
    const vy = xyz[c * 3 + 1] - ay;
    const vz = xyz[c * 3 + 2] - az;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const length = Math.hypot(nx, ny, nz) || 1;
    chunk.writeFloatLE(nx / length, used);
    chunk.writeFloatLE(ny / length, used + 4);
    chunk.writeFloatLE(nz / length, used + 8);
    let o = used + 12;
    for (const v of [a, b, c]) {
      chunk.writeFloatLE(xyz[v * 3], o);
      chunk.writeFloatLE(xyz[v * 3 + 1], o + 4);
      chunk.writeFloatLE(xyz[v * 3 + 2], o + 8);
      o += 12;
    }
    chunk.writeUInt16LE(0, o);
    used += 50;
    if (used === chunk.length) flush();
  };
  try {
    const header = Buffer.alloc(84);
    header.write('printyard bench: scan-like displaced surface', 0, 'latin1');
    header.writeUInt32LE(triangles, 80);
    writeSync(fd, header);
    const at = (ring, seg) => 1 + ring * segments + (seg % segments);
    for (let seg = 0; seg < segments; seg++) facet(0, at(0, seg), at(0, seg + 1));
    for (let ring = 0; ring + 1 < rings; ring++) {
      for (let seg = 0; seg < segments; seg++) {
        facet(at(ring, seg), at(ring + 1, seg), at(ring + 1, seg + 1));
        facet(at(ring, seg), at(ring + 1, seg + 1), at(ring, seg + 1));
      }
    }
    for (let seg = 0; seg < segments; seg++) facet(last, at(rings - 1, seg + 1), at(rings - 1, seg));
    flush();
  } finally {
    closeSync(fd);
  }
  return triangles;
}

/**
 * The CSG models, as OpenSCAD sources. No minkowski (hours in CGAL).
 * - A ball at $fn = 200 bored through by cylinders, with chamfer cones: CGAL's difference of fine
 *   facets gives long thin triangles (37,000) and outlines of thousands of points per layer, as real
 *   CSG exports do; CGAL takes about a minute of CPU.
 * - A twisted extrusion of a 2D difference (a ring with pockets and notches, $fn = 240): 242,000
 *   triangles, every layer a different outline of some 1,200 points with 13 holes. 2D booleans and
 *   extrusions need no CGAL, so openscad renders it in seconds.
 */
export const CSG_SOURCES = {
  'csg-ball-fn200.stl': `// printyard bench: high-resolution CSG
difference() {
  sphere(r = 45, $fn = 200);
  cylinder(r = 11, h = 120, center = true, $fn = 200);
  for (a = [0, 60, 120]) rotate([90, 0, a]) cylinder(r = 7, h = 120, center = true, $fn = 120);
  for (s = [-1, 1]) translate([0, 0, s * 40]) cylinder(r1 = 18 - s * 6, r2 = 18 + s * 6, h = 12, center = true, $fn = 200);
}
`,
  'csg-twist-fn240.stl': `// printyard bench: high-resolution CSG, twisted
linear_extrude(height = 60, twist = 90, slices = 100)
  difference() {
    circle(r = 40, $fn = 240);
    circle(r = 18, $fn = 240);
    for (a = [0 : 30 : 330]) rotate(a) translate([29, 0]) circle(r = 5, $fn = 48);
    for (a = [15 : 30 : 345]) rotate(a) translate([40, 0]) circle(r = 3, $fn = 32);
  }
`,
};

/** The openscad release, part of the cache key: another CGAL may tessellate differently. */
function openscadVersion() {
  const r = spawnSync(OPENSCAD, ['--version'], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.trim();
}

/**
 * A CSG model of CSG_SOURCES rendered to ASCII STL, cached in `cacheDir` under a hash of the source
 * and the openscad release (CGAL takes a minute or more; the bench should not pay it on every run).
 */
export function renderCsgStl(name, cacheDir, log) {
  if (!existsSync(OPENSCAD)) throw new Error(`${OPENSCAD} is missing: install the Debian package "openscad" (--large needs it)`);
  const text = CSG_SOURCES[name];
  const key = createHash('sha256').update(text).update(openscadVersion()).digest('hex').slice(0, 16);
  const stem = `${name.replace(/\.stl$/, '')}-${key}`;
  const path = join(cacheDir, `${stem}.stl`);
  if (existsSync(path)) return path;
  mkdirSync(cacheDir, { recursive: true });
  const source = join(cacheDir, `${stem}.scad`);
  const partial = `${path}.partial.stl`;
  writeFileSync(source, text);
  log(`rendering ${name} with openscad (once, cached in ${cacheDir})`);
  try {
    execFileSync(OPENSCAD, ['-o', partial, source], { stdio: ['ignore', 'ignore', 'pipe'] });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
    rmSync(source, { force: true });
  }
  return path;
}

export const LARGE_MODELS = [...Object.keys(CSG_SOURCES), 'scan-bust-3m.stl'];

/** The large models of `names` as `{ name, path }`: the scan written into `workDir`, the CSG model from the cache. */
export function largeModels(names, { workDir, cacheDir, log }) {
  const make = {
    ...Object.fromEntries(Object.keys(CSG_SOURCES).map((name) => [name, () => renderCsgStl(name, cacheDir, log)])),
    'scan-bust-3m.stl': () => {
      const scan = join(workDir, 'scan-bust-3m.stl');
      log('writing the scan-like mesh (3,000,000 triangles)');
      writeScanStl(scan);
      return scan;
    },
  };
  return names.map((name) => ({ name, path: make[name]() }));
}
