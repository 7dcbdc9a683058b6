/**
 * Meshes to file bytes: binary STL (several objects become one file), OBJ (one `o` per object),
 * 3MF (one object per mesh, each placed by a build item where it is), and a zip of files.
 * Coordinates are float32 in every format, so they are written with the digits a float32 has.
 */
import { strToU8, zipSync } from 'fflate';
import type { IndexedMesh } from '../../slicer/index.js';
import { faceCross } from './measure.js';
import type { MeshFormat, MeshObject } from './read-model.js';

export const CONTENT_TYPES: Record<MeshFormat | 'zip', string> = {
  stl: 'model/stl',
  '3mf': 'model/3mf',
  obj: 'model/obj',
  zip: 'application/zip',
};

/** Shortest text that reads back as the same float32. */
function coord(value: number): string {
  for (let digits = 6; digits < 9; digits++) {
    const text = String(Number(value.toPrecision(digits)));
    if (Math.fround(Number(text)) === Math.fround(value)) return text;
  }
  return String(Math.fround(value));
}

export function toBinaryStl(objects: readonly MeshObject[]): Uint8Array {
  const triangles = objects.reduce((sum, o) => sum + o.mesh.indices.length / 3, 0);
  const bytes = new Uint8Array(84 + 50 * triangles);
  bytes.set(strToU8('binary STL written by Printyard mesh tools').subarray(0, 80));
  const view = new DataView(bytes.buffer);
  view.setUint32(80, triangles, true);
  let offset = 84;
  const normal = new Float64Array(3);
  for (const { mesh } of objects) {
    const v = mesh.vertices;
    const idx = mesh.indices;
    for (let k = 0; k < idx.length; k += 3) {
      const [nx, ny, nz] = faceCross(mesh, k, normal);
      const length = Math.hypot(nx, ny, nz) || 1;
      view.setFloat32(offset, nx / length, true);
      view.setFloat32(offset + 4, ny / length, true);
      view.setFloat32(offset + 8, nz / length, true);
      for (let corner = 0; corner < 3; corner++) {
        const p = idx[k + corner] * 3;
        for (let axis = 0; axis < 3; axis++) view.setFloat32(offset + 12 + corner * 12 + axis * 4, v[p + axis], true);
      }
      offset += 50;
    }
  }
  return bytes;
}

export function toObj(objects: readonly MeshObject[]): Uint8Array {
  const lines: string[] = ['# written by Printyard mesh tools'];
  let base = 1;
  for (const { name, mesh } of objects) {
    lines.push(`o ${name.replace(/\s+/g, '_')}`);
    const v = mesh.vertices;
    for (let k = 0; k < v.length; k += 3) lines.push(`v ${coord(v[k])} ${coord(v[k + 1])} ${coord(v[k + 2])}`);
    const idx = mesh.indices;
    for (let k = 0; k < idx.length; k += 3) lines.push(`f ${idx[k] + base} ${idx[k + 1] + base} ${idx[k + 2] + base}`);
    base += v.length / 3;
  }
  lines.push('');
  return strToU8(lines.join('\n'));
}

const escapeXml = (text: string): string => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);

function meshXml(mesh: IndexedMesh): string {
  const parts: string[] = ['<mesh><vertices>'];
  const v = mesh.vertices;
  for (let k = 0; k < v.length; k += 3) parts.push(`<vertex x="${coord(v[k])}" y="${coord(v[k + 1])}" z="${coord(v[k + 2])}"/>`);
  parts.push('</vertices><triangles>');
  const idx = mesh.indices;
  for (let k = 0; k < idx.length; k += 3) parts.push(`<triangle v1="${idx[k]}" v2="${idx[k + 1]}" v3="${idx[k + 2]}"/>`);
  parts.push('</triangles></mesh>');
  return parts.join('');
}

const CONTENT_TYPES_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>';
const RELS_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>';

/** A 3MF core package: one mesh object per entry, in millimetres, each placed where its coordinates are. */
export function to3mf(objects: readonly MeshObject[]): Uint8Array {
  const resources = objects.map((o, k) => `<object id="${k + 1}" type="model" name="${escapeXml(o.name)}">${meshXml(o.mesh)}</object>`);
  const items = objects.map((_, k) => `<item objectid="${k + 1}"/>`);
  const model =
    '<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" ' +
    'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">' +
    '<metadata name="Application">Printyard mesh tools</metadata>' +
    `<resources>${resources.join('')}</resources><build>${items.join('')}</build></model>`;
  return zipSync(
    { '[Content_Types].xml': strToU8(CONTENT_TYPES_XML), '_rels/.rels': strToU8(RELS_XML), '3D/3dmodel.model': strToU8(model) },
    { level: 6 },
  );
}

export function writeMesh(objects: readonly MeshObject[], format: MeshFormat): Uint8Array {
  if (format === '3mf') return to3mf(objects);
  if (format === 'obj') return toObj(objects);
  return toBinaryStl(objects);
}

/** One file per object in a zip, named after the objects (made unique). */
export function zipOfMeshes(objects: readonly MeshObject[], format: Exclude<MeshFormat, '3mf'>): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  objects.forEach((o, k) => {
    const safe = o.name.replace(/[^A-Za-z0-9._-]+/g, '_') || 'part';
    files[`${String(k + 1).padStart(3, '0')}-${safe}.${format}`] = writeMesh([o], format);
  });
  return zipSync(files, { level: 6 });
}
