/**
 * A scene object's mesh put where the scene says: mirror, scale and rotate in the object's own
 * frame, then its bounding box centred on its `translate` x/y (relative to the bed's centre) and its
 * bottom on the bed, or sunk below it with the part under the bed cut away. Also the geometry the
 * checks before slicing need: each object's footprint (its convex hull seen from above), whether
 * two footprints overlap, whether a footprint lies inside the printable area.
 */
import { type Affine, compose, linearAffine, meshBounds, rotationAffine, transformMesh } from '../../../slicer/index.js';
import { disposing, type ManifoldToplevel, type SolidMesh } from '../geometry/manifold.js';
import { MIN_OBJECT_SIZE_MM, type SceneTransform } from './scene.js';

export type Point = [number, number];

export interface PlacedObject {
  name: string;
  /** The mesh with the centre of its (uncut) bounding box at x/y = 0 and the bed at z = 0. */
  mesh: SolidMesh;
  /** Where that centre goes, relative to the centre of the printable area (mm). */
  offset: Point;
  /** Width, depth and height as placed (mm), after any cut. */
  size: [number, number, number];
  /** The convex hull of the mesh seen from above, counter-clockwise, relative to the bed's centre. */
  footprint: Point[];
  /**
   * How a height in the model's own frame maps to a height above the bed (`scale · z + shift`), or
   * null when the object is tipped over or upside down (its heights no longer follow one axis).
   */
  heights: HeightMap | null;
}

export interface HeightMap {
  scale: number;
  shift: number;
}

/** Below this, a matrix entry counts as 0 (float residue of a rotation by a multiple of 90°). */
const UPRIGHT_EPSILON = 1e-9;

/** The object's own transform (mirror, scale, rotate X, Y, Z) as one matrix. */
export function objectMatrix(transform: SceneTransform): Affine {
  const { scale, mirror, rotate } = transform;
  let m = linearAffine([scale.x * (mirror.x ? -1 : 1), 0, 0, 0, scale.y * (mirror.y ? -1 : 1), 0, 0, 0, scale.z * (mirror.z ? -1 : 1)]);
  if (rotate.x) m = compose(m, rotationAffine(0, rotate.x));
  if (rotate.y) m = compose(m, rotationAffine(1, rotate.y));
  if (rotate.z) m = compose(m, rotationAffine(2, rotate.z));
  return m;
}

/** The size of the mesh once transformed, before placing: what the bounds checks of a scene read. */
export function transformedSize(mesh: SolidMesh, transform: SceneTransform): [number, number, number] {
  const box = meshBounds(transformMesh(mesh, objectMatrix(transform)));
  return [box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]];
}

/** Removes everything below z = 0 with manifold-3d (the mesh is closed, so the cut is closed too). */
async function cutAtBed(kernel: ManifoldToplevel, mesh: SolidMesh): Promise<SolidMesh> {
  return disposing((keep) => {
    const solid = keep(kernel.Manifold.ofMesh(new kernel.Mesh({ numProp: 3, vertProperties: mesh.vertices, triVerts: mesh.indices })));
    const cut = keep(solid.trimByPlane([0, 0, 1], 0));
    const out = cut.getMesh();
    const count = out.vertProperties.length / out.numProp;
    const vertices = new Float32Array(count * 3);
    for (let v = 0; v < count; v++) for (let k = 0; k < 3; k++) vertices[v * 3 + k] = out.vertProperties[v * out.numProp + k];
    return { vertices, indices: Uint32Array.from(out.triVerts) };
  });
}

export async function placeObject(kernel: ManifoldToplevel, name: string, source: SolidMesh, transform: SceneTransform): Promise<PlacedObject> {
  const m = objectMatrix(transform);
  const turned = transformMesh(source, m);
  const box = meshBounds(turned);
  const centre = [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2];
  const shift = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, -centre[0], -centre[1], transform.translate.z - box.min[2]);
  if (box.max[2] - box.min[2] + transform.translate.z < MIN_OBJECT_SIZE_MM) throw new Error('nothing of the object is left above the bed');
  let mesh: SolidMesh = transformMesh(turned, shift);
  if (transform.translate.z < 0) mesh = await cutAtBed(kernel, mesh);
  const placed = meshBounds(mesh);
  const offset: Point = [transform.translate.x, transform.translate.y];
  // Upright: the placed height depends on the model's own height alone, and grows with it.
  const upright = Math.abs(m[2]) < UPRIGHT_EPSILON && Math.abs(m[5]) < UPRIGHT_EPSILON && m[8] > 0;
  return {
    name,
    mesh,
    offset,
    size: [placed.max[0] - placed.min[0], placed.max[1] - placed.min[1], placed.max[2] - placed.min[2]],
    footprint: convexHull(mesh.vertices).map(([x, y]): Point => [x + offset[0], y + offset[1]]),
    heights: upright ? { scale: m[8], shift: transform.translate.z - box.min[2] } : null,
  };
}

const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** The convex hull of the vertices' x/y (Andrew's monotone chain), counter-clockwise. */
export function convexHull(vertices: Float32Array): Point[] {
  const points: Point[] = [];
  for (let i = 0; i < vertices.length; i += 3) points.push([vertices[i], vertices[i + 1]]);
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (points.length < 3) return points;
  const half = (list: Point[]): Point[] => {
    const chain: Point[] = [];
    for (const p of list) {
      while (chain.length >= 2 && cross(chain[chain.length - 2], chain[chain.length - 1], p) <= 0) chain.pop();
      chain.push(p);
    }
    chain.pop();
    return chain;
  };
  return [...half(points), ...half([...points].reverse())];
}

/**
 * How deep two convex polygons overlap (mm), by separating axes: 0 when they are apart or only
 * touch. Footprints that touch are fine on a bed; the slicer keeps the objects apart.
 */
export function overlapDepth(a: Point[], b: Point[]): number {
  let depth = Infinity;
  for (const polygon of [a, b]) {
    for (let i = 0; i < polygon.length; i++) {
      const p = polygon[i];
      const q = polygon[(i + 1) % polygon.length];
      const length = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (length === 0) continue;
      const axis: Point = [(p[1] - q[1]) / length, (q[0] - p[0]) / length];
      const project = (points: Point[]) => points.map(([x, y]) => x * axis[0] + y * axis[1]);
      const pa = project(a);
      const pb = project(b);
      const overlap = Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb));
      if (overlap <= 0) return 0;
      depth = Math.min(depth, overlap);
    }
  }
  return depth === Infinity ? 0 : depth;
}

/** Whether a point lies inside a polygon (even-odd rule), or within `tolerance` mm of its edge. */
export function insidePolygon([x, y]: Point, polygon: readonly Point[], tolerance = 1e-3): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (distanceToSegment([x, y], polygon[j], polygon[i]) <= tolerance) return true;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distanceToSegment([x, y]: Point, [ax, ay]: Point, [bx, by]: Point): number {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / lengthSquared));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}
