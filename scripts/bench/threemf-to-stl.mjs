// Converts a 3MF package to one binary STL, because CuraEngine reads STL only and every slicer
// of the bench must slice the identical solid. Follows the 3MF core spec: Z is up, the build
// items are what gets printed, a mesh's world placement is its component transforms then the
// item transform (row-vector 4x3 matrices), `unit` scales to mm. Components in other model parts
// of the package (production extension `p:path`) are followed.
import { strFromU8, unzipSync } from 'fflate';

const UNIT_MM = { micron: 0.001, millimeter: 1, centimeter: 10, inch: 25.4, foot: 304.8, meter: 1000 };
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];

function attributes(tag) {
  const out = {};
  for (const m of tag.matchAll(/([\w:]+)\s*=\s*"([^"]*)"/g)) out[m[1]] = m[2];
  return out;
}

function parseTransform(text) {
  if (!text) return IDENTITY;
  const values = text.trim().split(/\s+/).map(Number);
  if (values.length !== 12 || values.some((v) => !Number.isFinite(v))) throw new Error(`bad 3MF transform "${text}"`);
  return values;
}

/** The transform that applies `inner` first, then `outer` (row vectors: inner × outer). */
function compose(inner, outer) {
  const out = new Array(12);
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 3; col++) {
      let sum = row === 3 ? outer[9 + col] : 0;
      for (let k = 0; k < 3; k++) sum += inner[row * 3 + k] * outer[k * 3 + col];
      out[row * 3 + col] = sum;
    }
  }
  return out;
}

function determinant(m) {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/** Objects of one model part: meshes as flat vertex/index arrays, or component lists. */
function parseModelPart(xml, partPath) {
  const unit = attributes(/<model\b[^>]*>/.exec(xml)?.[0] ?? '').unit ?? 'millimeter';
  const scale = UNIT_MM[unit];
  if (scale === undefined) throw new Error(`unknown 3MF unit "${unit}" in ${partPath}`);
  const objects = new Map();
  for (const m of xml.matchAll(/<object\b([^>]*)>([\s\S]*?)<\/object>/g)) {
    const { id } = attributes(m[1]);
    const body = m[2];
    const vertices = [];
    for (const v of body.matchAll(/<vertex\b([^>]*)\/?>/g)) {
      const a = attributes(v[1]);
      vertices.push(Number(a.x) * scale, Number(a.y) * scale, Number(a.z) * scale);
    }
    const indices = [];
    for (const t of body.matchAll(/<triangle\b([^>]*)\/?>/g)) {
      const a = attributes(t[1]);
      indices.push(Number(a.v1), Number(a.v2), Number(a.v3));
    }
    const components = [...body.matchAll(/<component\b([^>]*)\/?>/g)].map((c) => {
      const a = attributes(c[1]);
      return { objectId: a.objectid, path: a['p:path'] ?? partPath, transform: parseTransform(a.transform) };
    });
    objects.set(id, { vertices, indices, components });
  }
  const items = [...xml.matchAll(/<item\b([^>]*)\/?>/g)]
    .map((i) => attributes(i[1]))
    .filter((a) => a.printable !== '0')
    .map((a) => ({ objectId: a.objectid, path: a['p:path'] ?? partPath, transform: parseTransform(a.transform) }));
  return { objects, items };
}

function rootModelPath(files) {
  const rels = files['_rels/.rels'];
  const target = rels && /Target="\/?([^"]+)"[^>]*Type="[^"]*\/3dmodel"|Type="[^"]*\/3dmodel"[^>]*Target="\/?([^"]+)"/.exec(strFromU8(rels));
  return target ? (target[1] ?? target[2]) : '3D/3dmodel.model';
}

/** World-space triangles of a 3MF package: 9 floats (3 vertices) per triangle, in mm. */
export function threeMfTriangles(bytes) {
  const files = unzipSync(bytes);
  const parts = new Map();
  const part = (path) => {
    const key = path.replace(/^\//, '');
    if (!parts.has(key)) {
      if (!files[key]) throw new Error(`3MF package has no model part ${key}`);
      parts.set(key, parseModelPart(strFromU8(files[key]), key));
    }
    return parts.get(key);
  };
  const out = [];
  const emit = (ref, transform, depth) => {
    if (depth > 32) throw new Error('3MF components nest deeper than 32 levels (a cycle?)');
    const object = part(ref.path).objects.get(ref.objectId);
    if (!object) throw new Error(`3MF object ${ref.objectId} not found in ${ref.path}`);
    for (const child of object.components) emit(child, compose(child.transform, transform), depth + 1);
    const { vertices: v, indices } = object;
    const flip = determinant(transform) < 0;
    for (let i = 0; i < indices.length; i += 3) {
      const corners = flip ? [indices[i], indices[i + 2], indices[i + 1]] : [indices[i], indices[i + 1], indices[i + 2]];
      for (const c of corners) {
        const x = v[c * 3];
        const y = v[c * 3 + 1];
        const z = v[c * 3 + 2];
        out.push(
          x * transform[0] + y * transform[3] + z * transform[6] + transform[9],
          x * transform[1] + y * transform[4] + z * transform[7] + transform[10],
          x * transform[2] + y * transform[5] + z * transform[8] + transform[11],
        );
      }
    }
  };
  const root = rootModelPath(files);
  for (const item of part(root).items) emit(item, item.transform, 0);
  if (out.length === 0) throw new Error('3MF package has no printable triangles');
  return Float32Array.from(out);
}

/** A binary STL of flat triangles (9 floats each), normals from the winding. */
export function binaryStl(triangles, header = 'printyard bench') {
  const count = triangles.length / 9;
  const bytes = new Uint8Array(84 + count * 50);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(header.slice(0, 80)));
  view.setUint32(80, count, true);
  for (let t = 0; t < count; t++) {
    const p = t * 9;
    const ux = triangles[p + 3] - triangles[p];
    const uy = triangles[p + 4] - triangles[p + 1];
    const uz = triangles[p + 5] - triangles[p + 2];
    const vx = triangles[p + 6] - triangles[p];
    const vy = triangles[p + 7] - triangles[p + 1];
    const vz = triangles[p + 8] - triangles[p + 2];
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const length = Math.hypot(nx, ny, nz) || 1;
    const offset = 84 + t * 50;
    view.setFloat32(offset, nx / length, true);
    view.setFloat32(offset + 4, ny / length, true);
    view.setFloat32(offset + 8, nz / length, true);
    for (let k = 0; k < 9; k++) view.setFloat32(offset + 12 + k * 4, triangles[p + k], true);
  }
  return bytes;
}

export function threeMfToStl(bytes) {
  return binaryStl(threeMfTriangles(bytes), 'printyard bench: 3MF build items in world space');
}
