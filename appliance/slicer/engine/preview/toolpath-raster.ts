/**
 * A top-down orthographic picture of sliced toolpaths, coloured by feature. Layers are fed in
 * print order and each paints over the ones below, so the picture shows what is visible from
 * above. Lines are drawn at their real width with analytic anti-aliasing (coverage from the
 * distance to the segment), and darker the lower they are, so stacked layers read as depth.
 */
import type { BBox2 } from '../geometry/types.js';
import type { Extrusion, LayerPaths } from '../toolpath/types.js';
import { checkImageSize, encodePng } from './image.js';
import { ROLE_COLORS, type Rgb } from './palette.js';

export interface ToolpathRasterOptions {
  width: number;
  height: number;
  /** XY extent (mm) to fit into the image, keeping the aspect ratio, centred. */
  bounds: BBox2;
  /** Top of the print (mm): layers near it are drawn brightest. */
  maxZ: number;
  /** Empty border in pixels; defaults to 4% of the shorter side. */
  marginPx?: number;
}

/** Brightness of the lowest layer relative to the top one. */
const BOTTOM_SHADE = 0.55;

export class ToolpathRaster {
  readonly width: number;
  readonly height: number;
  private readonly rgba: Uint8ClampedArray;
  /** Coverage of the extrusion being drawn, composited once it is complete. */
  private readonly coverage: Float32Array;
  private touched = new Int32Array(1024);
  private touchedCount = 0;
  /** Pixel coordinates of the extrusion being drawn, reused between extrusions. */
  private xs = new Float64Array(256);
  private ys = new Float64Array(256);
  private readonly scale: number;
  private readonly offsetX: number;
  private readonly offsetY: number;
  private readonly maxZ: number;

  constructor(options: ToolpathRasterOptions) {
    checkImageSize(options.width, options.height);
    this.width = options.width;
    this.height = options.height;
    this.rgba = new Uint8ClampedArray(this.width * this.height * 4);
    this.coverage = new Float32Array(this.width * this.height);
    this.maxZ = options.maxZ > 0 ? options.maxZ : 1;
    const margin = options.marginPx ?? Math.round(0.04 * Math.min(this.width, this.height));
    const spanX = Math.max(options.bounds.maxX - options.bounds.minX, 1e-6);
    const spanY = Math.max(options.bounds.maxY - options.bounds.minY, 1e-6);
    this.scale = Math.max(Math.min((this.width - 2 * margin) / spanX, (this.height - 2 * margin) / spanY), 1e-6);
    this.offsetX = (this.width - spanX * this.scale) / 2 - options.bounds.minX * this.scale;
    this.offsetY = (this.height - spanY * this.scale) / 2 - options.bounds.minY * this.scale;
  }

  /**
   * Paints one layer over what is there. From above, a layer shows only where the layers over it
   * leave it exposed, which is where it has top surfaces or bridges (or it is the last layer): a
   * layer without them is skipped, and the internal infill of the others is left out, as the
   * layers above cover it. Infill goes first so walls stay crisp on top of it.
   */
  addLayer(layer: LayerPaths, last = false): void {
    const exposed = (e: Extrusion) => e.role === 'top-surface' || e.role === 'bridge';
    if (!last && layer.adhesion.length === 0 && layer.support.length === 0 && !layer.islands.some((isl) => isl.infill.some(exposed))) return;
    const shade = BOTTOM_SHADE + (1 - BOTTOM_SHADE) * Math.min(Math.max(layer.printZ / this.maxZ, 0), 1);
    for (const extrusion of layer.adhesion) this.drawExtrusion(extrusion, shade);
    for (const extrusion of layer.support) this.drawExtrusion(extrusion, shade);
    for (const island of layer.islands) for (const extrusion of island.infill) if (last || exposed(extrusion)) this.drawExtrusion(extrusion, shade);
    for (const island of layer.islands) for (const extrusion of island.walls) this.drawExtrusion(extrusion, shade);
  }

  toPng(): Uint8Array {
    return encodePng(this.width, this.height, this.rgba);
  }

  private drawExtrusion(extrusion: Extrusion, shade: number): void {
    const count = extrusion.points.length / 2;
    if (count === 0) return;
    if (this.xs.length < count) {
      this.xs = new Float64Array(count * 2);
      this.ys = new Float64Array(count * 2);
    }
    const { xs, ys } = this;
    for (let i = 0; i < count; i++) {
      xs[i] = this.px(extrusion.points[2 * i]);
      ys[i] = this.py(extrusion.points[2 * i + 1]);
    }
    const widthPx = extrusion.width * this.scale;
    let lastSegment = count - 2;
    while (lastSegment >= 0 && xs[lastSegment] === xs[lastSegment + 1] && ys[lastSegment] === ys[lastSegment + 1]) lastSegment--;
    if (lastSegment < 0) {
      this.coverSegment(xs[0], ys[0], xs[0], ys[0], widthPx, 0, 0, true);
    } else {
      // A loop's ends meet: its first joint follows its last segment, and it has no end cap.
      const closed = xs[0] === xs[count - 1] && ys[0] === ys[count - 1];
      let previousDx = closed ? xs[lastSegment + 1] - xs[lastSegment] : 0;
      let previousDy = closed ? ys[lastSegment + 1] - ys[lastSegment] : 0;
      for (let i = 0; i <= lastSegment; i++) {
        const dx = xs[i + 1] - xs[i];
        const dy = ys[i + 1] - ys[i];
        if (dx === 0 && dy === 0) continue;
        this.coverSegment(xs[i], ys[i], xs[i + 1], ys[i + 1], widthPx, previousDx, previousDy, !closed && i === lastSegment);
        previousDx = dx;
        previousDy = dy;
      }
    }
    this.composite(ROLE_COLORS[extrusion.role], shade);
  }

  private px(x: number): number {
    return x * this.scale + this.offsetX;
  }

  private py(y: number): number {
    return this.height - (y * this.scale + this.offsetY);
  }

  /**
   * Adds the coverage of one segment: the overlap of a one-pixel box filter with a line of width w
   * at distance d from the pixel centre. Coverage adds up within an extrusion, so dense sub-pixel
   * infill lines still fill their area. So that joints do not thicken, a segment's round end cap
   * is left to the next segment, whose start cap only fills the wedge the previous segment
   * (direction previousDx, previousDy; zero for a path's start) left open. Lines under a pixel
   * wide keep their total ink (w), spread as a tent, so fine infill still shows at small sizes.
   */
  private coverSegment(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    widthPx: number,
    previousDx: number,
    previousDy: number,
    endCap: boolean,
  ): void {
    const drawn = Math.max(widthPx, 1);
    const intensity = widthPx / drawn;
    const reach = drawn / 2 + 0.5;
    const minX = Math.max(0, Math.floor(Math.min(x0, x1) - reach));
    const maxX = Math.min(this.width - 1, Math.ceil(Math.max(x0, x1) + reach));
    const minY = Math.max(0, Math.floor(Math.min(y0, y1) - reach));
    const maxY = Math.min(this.height - 1, Math.ceil(Math.max(y0, y1) + reach));
    if (minX > maxX || minY > maxY) return;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const lengthSq = dx * dx + dy * dy;
    const inverse = lengthSq > 0 ? 1 / lengthSq : 0;
    const band = reach * Math.sqrt(lengthSq);
    for (let y = minY; y <= maxY; y++) {
      const cy = y + 0.5;
      // Pixel centres of this row that can be within reach: inside the band around the line
      // (|cross| <= reach * length) and the slab across it (-reach <= t * length <= length + reach).
      // Both are linear in x, so the row's span is found without visiting the bounding box.
      let lo = minX + 0.5;
      let hi = maxX + 0.5;
      if (lengthSq > 0) {
        const cross0 = -x0 * dy - (cy - y0) * dx;
        if (dy !== 0) {
          const a = (-band - cross0) / dy;
          const b = (band - cross0) / dy;
          lo = Math.max(lo, Math.min(a, b));
          hi = Math.min(hi, Math.max(a, b));
        } else if (Math.abs(cross0) > band) continue;
        const dot0 = -x0 * dx + (cy - y0) * dy;
        if (dx !== 0) {
          const a = (-band - dot0) / dx;
          const b = (lengthSq + band - dot0) / dx;
          lo = Math.max(lo, Math.min(a, b));
          hi = Math.min(hi, Math.max(a, b));
        } else if (dot0 < -band || dot0 > lengthSq + band) continue;
      }
      const last = Math.min(maxX, Math.floor(hi - 0.5));
      for (let x = Math.max(minX, Math.ceil(lo - 0.5)); x <= last; x++) {
        const cx = x + 0.5;
        let t = ((cx - x0) * dx + (cy - y0) * dy) * inverse;
        if (t < 0) {
          if ((cx - x0) * previousDx + (cy - y0) * previousDy < 0) continue;
          t = 0;
        } else if (t >= 1 && lengthSq > 0) {
          if (!endCap) continue;
          t = 1;
        }
        const ex = x0 + t * dx - cx;
        const ey = y0 + t * dy - cy;
        const edge = reach - Math.sqrt(ex * ex + ey * ey);
        if (edge <= 0) continue;
        const index = y * this.width + x;
        const previous = this.coverage[index];
        if (previous === 0) this.touch(index);
        const sum = previous + (edge > 1 ? 1 : edge) * intensity;
        this.coverage[index] = sum > 1 ? 1 : sum;
      }
    }
  }

  private touch(index: number): void {
    if (this.touchedCount === this.touched.length) {
      const grown = new Int32Array(this.touched.length * 2);
      grown.set(this.touched);
      this.touched = grown;
    }
    this.touched[this.touchedCount++] = index;
  }

  /** Blends the covered pixels with the colour (straight alpha, "over") and clears the coverage. */
  private composite(color: Rgb, shade: number): void {
    const r = color[0] * shade;
    const g = color[1] * shade;
    const b = color[2] * shade;
    const rgba = this.rgba;
    for (let k = 0; k < this.touchedCount; k++) {
      const index = this.touched[k];
      const c = this.coverage[index];
      this.coverage[index] = 0;
      const o = index * 4;
      const below = rgba[o + 3] / 255;
      const alpha = c + below * (1 - c);
      const keep = (below * (1 - c)) / alpha;
      rgba[o] = r * (c / alpha) + rgba[o] * keep;
      rgba[o + 1] = g * (c / alpha) + rgba[o + 1] * keep;
      rgba[o + 2] = b * (c / alpha) + rgba[o + 2] * keep;
      rgba[o + 3] = alpha * 255;
    }
    this.touchedCount = 0;
  }
}
