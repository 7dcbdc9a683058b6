/**
 * Gyroid infill: the cross-section at height z of the triply periodic surface
 * sin x cos y + sin y cos z + sin z cos x = 0, as polylines.
 *
 * Scaling follows PrusaSlicer/OrcaSlicer so a given density prints about the same weight there
 * and here: one radian of the surface is spacing / (density * 2.44) mm.
 *
 * At fixed z the section is a family of waves. Where |cos z| >= |sin z| every wave is a function
 * y(x): sin x cos y + cos z sin y = -sin z cos x has the form R cos(y - phi) = c, so
 * y = phi ± acos(c / R), two branches per 2 pi of y. Otherwise the waves are functions x(y):
 * cos y sin x + sin z cos x = -cos z sin y, which is R sin(x + chi) = c, so
 * x = pi/2 - chi ± acos(c / R). Each branch is periodic in its running coordinate, so one
 * period is sampled, simplified to the tolerance, and tiled over the box.
 */
import { simplifyPolyline } from '../../geometry/polygon.js';
import type { BBox2 } from '../../geometry/types.js';

/** Density multiplier PrusaSlicer and OrcaSlicer use so gyroid weight matches the density. */
const DENSITY_ADJUST = 2.44;
/** Samples per period before simplification; fine enough that sampling error is far below the tolerance. */
const SAMPLES_PER_PERIOD = 720;

/** Millimetres per radian of the surface. */
export function gyroidScale(spacing: number, density: number): number {
  return spacing / (density * DENSITY_ADJUST);
}

/** Mean distance between neighbouring waves (mm). */
export function gyroidWaveDistance(spacing: number, density: number): number {
  return Math.PI * gyroidScale(spacing, density);
}

/**
 * The waves of the section at height z that cover `box` (mm, in the gyroid's own frame),
 * each deviating at most `tolerance` mm (plus sampling error) from the true curve.
 */
export function gyroidWaves(box: BBox2, z: number, spacing: number, density: number, tolerance: number): Float64Array[] {
  const scale = gyroidScale(spacing, density);
  const zu = z / scale;
  const sz = Math.sin(zu);
  const cz = Math.cos(zu);
  const alongX = Math.abs(cz) >= Math.abs(sz);
  const period = 2 * Math.PI * scale;
  const [a0, a1, b0, b1] = alongX ? [box.minX, box.maxX, box.minY, box.maxY] : [box.minY, box.maxY, box.minX, box.maxX];
  const firstTile = Math.floor(a0 / period);
  const tiles = Math.max(1, Math.ceil(a1 / period) - firstTile);
  const out: Float64Array[] = [];
  for (const wave of onePeriod(alongX, sz, cz, scale, tolerance)) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 1; k < wave.length; k += 2) {
      lo = Math.min(lo, wave[k]);
      hi = Math.max(hi, wave[k]);
    }
    const mFirst = Math.floor((b0 - hi) / period);
    const mLast = Math.ceil((b1 - lo) / period);
    for (let m = mFirst; m <= mLast; m++) out.push(tile(wave, firstTile, tiles, period, m * period, alongX));
  }
  return out;
}

/** One period of both branches as (along, across) pairs in mm, from along = 0 to along = period. */
function onePeriod(alongX: boolean, sz: number, cz: number, scale: number, tolerance: number): [Float64Array, Float64Array] {
  const n = SAMPLES_PER_PERIOD;
  const plus = new Float64Array((n + 1) * 2);
  const minus = new Float64Array((n + 1) * 2);
  for (let i = 0; i <= n; i++) {
    const u = (2 * Math.PI * i) / n;
    const su = Math.sin(u);
    const cu = Math.cos(u);
    // Along x: a = sin u, b = cos z, c = -sin z cos u. Along y (u is y): a = cos u, b = sin z, c = -cos z sin u.
    const a = alongX ? su : cu;
    const b = alongX ? cz : sz;
    const c = alongX ? -sz * cu : -cz * su;
    const r = Math.sqrt(a * a + b * b);
    const spread = Math.acos(Math.max(-1, Math.min(1, c / r)));
    // b keeps one sign (|b| >= 1/√2), so atan2(b, a) never crosses its cut and each branch is continuous.
    const phase = alongX ? Math.atan2(b, a) : Math.PI / 2 - Math.atan2(b, a);
    plus[i * 2] = minus[i * 2] = u * scale;
    plus[i * 2 + 1] = (phase + spread) * scale;
    minus[i * 2 + 1] = (phase - spread) * scale;
  }
  return [simplifyPolyline(plus, tolerance), simplifyPolyline(minus, tolerance)];
}

/** Copies of one period side by side, shifted across by `offset`, as world (x, y) points. */
function tile(wave: Float64Array, firstTile: number, tiles: number, period: number, offset: number, alongX: boolean): Float64Array {
  const perTile = (wave.length >> 1) - 1;
  const out = new Float64Array((tiles * perTile + 1) * 2);
  let o = 0;
  for (let t = 0; t < tiles; t++) {
    const shift = (firstTile + t) * period;
    for (let k = t === 0 ? 0 : 2; k < wave.length; k += 2) {
      const along = wave[k] + shift;
      const across = wave[k + 1] + offset;
      out[o++] = alongX ? along : across;
      out[o++] = alongX ? across : along;
    }
  }
  return out;
}
