/**
 * A shaded picture of unsliced meshes for G-code thumbnails and the service's preview endpoint:
 * orthographic projection from above or from the front-right ("iso"), z-buffered triangles, flat
 * Lambert shading with a fixed light, transparent background, 2x2 supersampling for smooth edges.
 * Faces are lit from whichever side faces the camera, so meshes with flipped normals still render.
 */
import type { IndexedMesh } from '../mesh/types.js';
import { checkImageSize, encodePng, parseHexColor } from './image.js';
import { length3 } from '../geometry/polygon.js';

export type MeshView = 'top' | 'iso';

export interface MeshRenderOptions {
  width: number;
  height: number;
  view: MeshView;
  /** Model colour "#RRGGBB", e.g. the filament colour. */
  color?: string;
  /** Empty border in output pixels; defaults to 5% of the shorter side. */
  marginPx?: number;
  /**
   * The area to frame, in view coordinates (for the top view, bed X and Y), instead of the meshes'
   * extent: a picture of the whole bed shows where the objects stand on it.
   */
  frame?: ViewBox;
  /**
   * Per mesh, whether it is closed and oriented outward (repair's report has no open or
   * non-manifold edge): the faces it turns away from the camera are then behind its others and are
   * not drawn, half the triangles and most of the pixel work of a thumbnail. Others are drawn
   * whole, lit from whichever side faces the camera.
   */
  closed?: readonly boolean[];
}

export interface ViewBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

type Vec3 = readonly [number, number, number];

interface Camera {
  right: Vec3;
  up: Vec3;
  /** Towards the camera: larger is nearer. */
  toward: Vec3;
  light: Vec3;
}

const DEFAULT_COLOR = '#F2A03D';
const AMBIENT = 0.3;
const DIFFUSE = 0.7;
/** Farthest surfaces are drawn this much darker, so flat tops at different heights stay apart. */
const DEPTH_CUE = 0.2;
/** Supersampling is skipped for very large images, where edges are fine anyway and memory is not. */
const SUPERSAMPLE_LIMIT = 1024 * 1024;

function normalize(v: Vec3): Vec3 {
  const n = length3(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}

function cameraFor(view: MeshView): Camera {
  if (view === 'top') return { right: [1, 0, 0], up: [0, 1, 0], toward: [0, 0, 1], light: normalize([-0.35, 0.45, 1]) };
  // From the front-right and above, looking at the model's front (-Y) and right (+X) sides.
  const toward = normalize([1, -1, 1]);
  return { right: normalize([1, 1, 0]), up: normalize([-1, 1, 2]), toward, light: normalize([0.2, -1, 1.6]) };
}

interface Projected {
  /** x, y, depth per vertex, per mesh, in view units. */
  points: Float64Array[];
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  minDepth: number;
  maxDepth: number;
}

function project(meshes: readonly IndexedMesh[], camera: Camera): Projected {
  const { right: r, up: u, toward: t } = camera;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  let minDepth = Infinity;
  let maxDepth = -Infinity;
  const points = meshes.map((mesh) => {
    const v = mesh.vertices;
    const out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i += 3) {
      const x = v[i] * r[0] + v[i + 1] * r[1] + v[i + 2] * r[2];
      const y = v[i] * u[0] + v[i + 1] * u[1] + v[i + 2] * u[2];
      out[i] = x;
      out[i + 1] = y;
      const depth = v[i] * t[0] + v[i + 1] * t[1] + v[i + 2] * t[2];
      out[i + 2] = depth;
      if (mesh.indices.length > 0) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
        if (depth < minDepth) minDepth = depth;
        if (depth > maxDepth) maxDepth = depth;
      }
    }
    return out;
  });
  return { points, minX, maxX, minY, maxY, minDepth, maxDepth };
}

class DepthCanvas {
  readonly depth: Float32Array;
  readonly shade: Float32Array;
  /** The box of the samples any triangle reached (empty while minX > maxX): nothing outside it is drawn. */
  minX = Infinity;
  maxX = -Infinity;
  minY = Infinity;
  maxY = -Infinity;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.depth = new Float32Array(width * height).fill(-Infinity);
    this.shade = new Float32Array(width * height);
  }

  /** Fills a screen-space triangle where it is nearer than what is drawn (top-left pixel centres). */
  fill(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number, shade: number): void {
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (Math.abs(area) < 1e-12) return;
    const minX = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const maxX = Math.min(this.width - 1, Math.ceil(Math.max(ax, bx, cx)));
    const minY = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const maxY = Math.min(this.height - 1, Math.ceil(Math.max(ay, by, cy)));
    const inv = 1 / area;
    // Edge functions w = A*x + B*y + C, normalised so they are barycentric weights inside.
    const a0 = (by - cy) * inv,
      b0 = (cx - bx) * inv,
      c0 = (bx * cy - cx * by) * inv;
    const a1 = (cy - ay) * inv,
      b1 = (ax - cx) * inv,
      c1 = (cx * ay - ax * cy) * inv;
    const a2 = -a0 - a1,
      b2 = -b0 - b1,
      c2 = 1 - c0 - c1;
    // z is linear in x along a row: step it instead of recomputing the weights per pixel.
    const dz = a0 * az + a1 * bz + a2 * cz;
    // Locals, not fields, in the pixel loop: it mostly runs before the optimising compiler has
    // seen it (a slice renders its thumbnails once), where each field load is a bytecode.
    const depth = this.depth;
    const shades = this.shade;
    for (let y = minY; y <= maxY; y++) {
      const py = y + 0.5;
      const e0 = b0 * py + c0,
        e1 = b1 * py + c1,
        e2 = b2 * py + c2;
      // Each weight a*x + e >= 0 bounds x on one side; intersect the three to get the row's span.
      if (rowMissed(a0, e0) || rowMissed(a1, e1) || rowMissed(a2, e2)) continue;
      const lo = Math.max(minX + 0.5, lowerEnd(a0, e0), lowerEnd(a1, e1), lowerEnd(a2, e2));
      const hi = Math.min(maxX + 0.5, upperEnd(a0, e0), upperEnd(a1, e1), upperEnd(a2, e2));
      const first = Math.max(minX, Math.ceil(lo - 0.5));
      const last = Math.min(maxX, Math.floor(hi - 0.5));
      if (first > last) continue;
      // Stored on every row, not only when the box grows: the first rows run before V8 records
      // type feedback, and a store first met in optimised code throws that code away.
      this.minX = Math.min(this.minX, first);
      this.maxX = Math.max(this.maxX, last);
      this.minY = Math.min(this.minY, y);
      this.maxY = Math.max(this.maxY, y);
      const z = (a0 * (first + 0.5) + e0) * az + (a1 * (first + 0.5) + e1) * bz + (a2 * (first + 0.5) + e2) * cz;
      fillSpan(depth, shades, y * this.width + first, last - first + 1, z, dz, shade);
    }
  }
}

/**
 * The pixels of one row of a triangle, nearer than what is drawn. A function of its own: the pixel
 * loop is most of a thumbnail's time, and V8 optimises a small function sooner and compiles it for
 * a fraction of what the whole triangle fill cost (8-20 ms on the second core, twice: once while
 * in the loop, once for the next call).
 */
function fillSpan(depth: Float32Array, shades: Float32Array, start: number, count: number, z0: number, dz: number, shade: number): void {
  let z = z0;
  for (let row = start, end = start + count; row < end; row++, z += dz) {
    if (z <= depth[row]) continue;
    depth[row] = z;
    shades[row] = shade;
  }
}

/*
 * Where the weight a*x + e of one edge is >= 0 along a row. One function for the three edges,
 * rather than a branch each written out: every triangle has edges of both signs, so after the
 * first one its branches all have type feedback. Written out, a sign first seen on a later
 * triangle threw the optimised code away and compiled it again (rigid3d's thumbnail: 25 ms of
 * compiling instead of 14, the drawing meanwhile run unoptimised).
 */
function lowerEnd(a: number, e: number): number {
  return a > 0 ? -e / a : -Infinity;
}

function upperEnd(a: number, e: number): number {
  return a < 0 ? -e / a : Infinity;
}

/** The row misses the edge's side entirely (an edge along the row, with the triangle off it). */
function rowMissed(a: number, e: number): boolean {
  return e < 0 && a === 0;
}

/** Maps view coordinates to canvas pixels: x' = x * scale + offsetX, y' = offsetY - y * scale. */
interface Fit {
  scale: number;
  offsetX: number;
  offsetY: number;
}

/** Draws every triangle lit, or, with `flatValue`, each mesh filled with its own value. */
function drawMeshes(
  canvas: DepthCanvas,
  meshes: readonly IndexedMesh[],
  projected: Projected,
  camera: Camera,
  fit: Fit,
  flatValue?: (mesh: number) => number,
  closed?: readonly boolean[],
): void {
  const { toward: t, light: l } = camera;
  meshes.forEach((mesh, m) => {
    const v = mesh.vertices;
    const p = projected.points[m];
    const flat = flatValue?.(m);
    const cull = closed?.[m] === true;
    const screen = new Float64Array((p.length / 3) * 2);
    for (let i = 0, j = 0; i < p.length; i += 3, j += 2) {
      screen[j] = p[i] * fit.scale + fit.offsetX;
      screen[j + 1] = fit.offsetY - p[i + 1] * fit.scale;
    }
    const idx = mesh.indices;
    for (let k = 0; k < idx.length; k += 3) {
      const i0 = idx[k],
        i1 = idx[k + 1],
        i2 = idx[k + 2];
      const ux = v[i1 * 3] - v[i0 * 3],
        uy = v[i1 * 3 + 1] - v[i0 * 3 + 1],
        uz = v[i1 * 3 + 2] - v[i0 * 3 + 2];
      const wx = v[i2 * 3] - v[i0 * 3],
        wy = v[i2 * 3 + 1] - v[i0 * 3 + 1],
        wz = v[i2 * 3 + 2] - v[i0 * 3 + 2];
      let nx = uy * wz - uz * wy,
        ny = uz * wx - ux * wz,
        nz = ux * wy - uy * wx;
      const length = length3(nx, ny, nz);
      if (length === 0) continue;
      const away = nx * t[0] + ny * t[1] + nz * t[2] < 0;
      if (away && cull) continue;
      const facing = away ? -1 / length : 1 / length;
      nx *= facing;
      ny *= facing;
      nz *= facing;
      const shade = flat ?? AMBIENT + DIFFUSE * Math.max(0, nx * l[0] + ny * l[1] + nz * l[2]);
      canvas.fill(
        screen[i0 * 2],
        screen[i0 * 2 + 1],
        p[i0 * 3 + 2],
        screen[i1 * 2],
        screen[i1 * 2 + 1],
        p[i1 * 3 + 2],
        screen[i2 * 2],
        screen[i2 * 2 + 1],
        p[i2 * 3 + 2],
        shade,
      );
    }
  });
}

/**
 * Averages the canvas samples under each output pixel (a block of ss x ss for the size it was drawn
 * for, a few more or fewer for a smaller picture of the same shape): coverage becomes alpha.
 */
function downsample(
  canvas: DepthCanvas,
  width: number,
  height: number,
  color: readonly [number, number, number],
  projected: Projected,
): Uint8ClampedArray {
  const out = new Uint8ClampedArray(width * height * 4);
  const fx = canvas.width / width;
  const fy = canvas.height / height;
  const maxDepth = projected.maxDepth;
  const depthSpan = maxDepth - projected.minDepth;
  const cue = depthSpan > 0 ? DEPTH_CUE / depthSpan : 0;
  const { depth, shade: shades, width: stride } = canvas;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.min(canvas.height, Math.ceil((y + 1) * fy));
    // Pixels whose samples lie outside the drawn box stay transparent.
    if (y1 <= canvas.minY || y0 > canvas.maxY) continue;
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * fx);
      const x1 = Math.min(canvas.width, Math.ceil((x + 1) * fx));
      if (x1 <= canvas.minX || x0 > canvas.maxX) continue;
      let covered = 0;
      let shadeSum = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let row = sy * stride + x0, end = sy * stride + x1; row < end; row++) {
          const d = depth[row];
          if (d === -Infinity) continue;
          covered++;
          shadeSum += shades[row] * (1 - (maxDepth - d) * cue);
        }
      }
      if (covered === 0) continue;
      const shade = shadeSum / covered;
      const o = (y * width + x) * 4;
      out[o] = color[0] * shade;
      out[o + 1] = color[1] * shade;
      out[o + 2] = color[2] * shade;
      out[o + 3] = (covered / ((y1 - y0) * (x1 - x0))) * 255;
    }
  }
  return out;
}

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * PNGs of the meshes at several sizes. Sizes of the same shape (48 x 48 and 300 x 300) share one
 * drawing, made for the largest and averaged down for the others: drawing a mesh of many
 * triangles costs far more than averaging pixels (the corpus's bearing: 20 ms a drawing).
 */
export function renderMeshPngs(
  meshes: readonly IndexedMesh[],
  sizes: readonly ImageSize[],
  options: Omit<MeshRenderOptions, 'width' | 'height'>,
): Uint8Array[] {
  for (const { width, height } of sizes) checkImageSize(width, height);
  const color = parseHexColor(options.color ?? DEFAULT_COLOR);
  const camera = cameraFor(options.view);
  const projected = project(meshes, camera);
  const pngs: (Uint8Array | undefined)[] = new Array(sizes.length);
  const sameShape = (a: ImageSize, b: ImageSize) => a.width * b.height === a.height * b.width;
  for (let k = 0; k < sizes.length; k++) {
    if (pngs[k]) continue;
    const group = sizes.flatMap((other, j) => (!pngs[j] && sameShape(other, sizes[k]) ? [j] : []));
    const largest = group.reduce((a, j) => (sizes[j].width > sizes[a].width ? j : a));
    const canvas = drawCanvas(meshes, projected, camera, sizes[largest], options);
    for (const j of group)
      pngs[j] = encodePng(sizes[j].width, sizes[j].height, downsample(canvas, sizes[j].width, sizes[j].height, color, projected));
  }
  return pngs as Uint8Array[];
}

export function renderMeshPng(meshes: readonly IndexedMesh[], options: MeshRenderOptions): Uint8Array {
  return renderMeshPngs(meshes, [options], options)[0];
}

/**
 * A picture for picking objects, as Bambu Studio's `pick_1.png`: each mesh filled flat, without
 * anti-aliasing, in the colour that encodes its id (red = bits 0-7, green = 8-15, blue = 16-23,
 * opaque), the background transparent black (id 0). Bambu Studio reads the id back from the
 * colour that covers most of each outline, so edges must not blend.
 */
export function renderPickPng(meshes: readonly IndexedMesh[], ids: readonly number[], options: MeshRenderOptions): Uint8Array {
  const { width, height } = options;
  checkImageSize(width, height);
  for (const id of ids) {
    if (!Number.isInteger(id) || id < 1 || id > 0xffffff) throw new RangeError(`pick id ${id} is not in 1..16777215`);
  }
  const camera = cameraFor(options.view);
  const projected = project(meshes, camera);
  const canvas = new DepthCanvas(width, height);
  const fit = fitFor(projected, width, height, options.marginPx ?? 0, options.frame);
  if (fit) drawMeshes(canvas, meshes, projected, camera, fit, (m) => ids[m]);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let k = 0; k < width * height; k++) {
    if (canvas.depth[k] === -Infinity) continue;
    const id = canvas.shade[k];
    rgba[k * 4] = id & 0xff;
    rgba[k * 4 + 1] = (id >> 8) & 0xff;
    rgba[k * 4 + 2] = (id >> 16) & 0xff;
    rgba[k * 4 + 3] = 255;
  }
  return encodePng(width, height, rgba);
}

/** Scale and offsets that fit the frame (or the meshes) in a canvas with a margin; null with nothing to draw. */
function fitFor(projected: Projected, width: number, height: number, margin: number, frame: ViewBox | undefined): Fit | null {
  if (projected.minX > projected.maxX) return null;
  const box = frame ?? projected;
  const spanX = box.maxX - box.minX;
  const spanY = box.maxY - box.minY;
  const scale = Math.max(Math.min((width - 2 * margin) / Math.max(spanX, 1e-9), (height - 2 * margin) / Math.max(spanY, 1e-9)), 1e-9);
  return {
    scale,
    offsetX: width / 2 - ((box.minX + box.maxX) / 2) * scale,
    offsetY: height / 2 + ((box.minY + box.maxY) / 2) * scale,
  };
}

/** The meshes drawn on a supersampled canvas for a picture of `size`, framed with a margin. */
function drawCanvas(
  meshes: readonly IndexedMesh[],
  projected: Projected,
  camera: Camera,
  size: ImageSize,
  options: Pick<MeshRenderOptions, 'marginPx' | 'frame' | 'closed'>,
): DepthCanvas {
  const { width, height } = size;
  const ss = width * height <= SUPERSAMPLE_LIMIT ? 2 : 1;
  const canvas = new DepthCanvas(width * ss, height * ss);
  const margin = (options.marginPx ?? (options.frame ? 0 : Math.round(0.05 * Math.min(width, height)))) * ss;
  const fit = fitFor(projected, canvas.width, canvas.height, margin, options.frame);
  if (fit) drawMeshes(canvas, meshes, projected, camera, fit, undefined, options.closed);
  return canvas;
}
