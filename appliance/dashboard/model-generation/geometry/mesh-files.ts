/**
 * A generated solid as a file: binary STL (what every slicer reads) or a 3MF (in millimetres,
 * keeping the model's name; a scene's 3MF has one object per model). Both are written here because
 * the dashboard reaches the slicer only through its public entry, which has readers, not writers.
 */
import { strToU8, zipSync } from 'fflate';
import type { SolidMesh } from './manifold.js';

export const MESH_FORMATS = ['stl', '3mf'] as const;
export type MeshFormat = (typeof MESH_FORMATS)[number];

export const MESH_CONTENT_TYPES: Record<MeshFormat, string> = {
  stl: 'model/stl',
  '3mf': 'model/3mf',
};

export function binaryStl(mesh: SolidMesh, name: string): Uint8Array {
  const triangles = mesh.indices.length / 3;
  const bytes = new Uint8Array(84 + triangles * 50);
  const view = new DataView(bytes.buffer);
  bytes.set(strToU8(`Printyard ${name}`.slice(0, 80)));
  view.setUint32(80, triangles, true);
  const v = mesh.vertices;
  for (let t = 0; t < triangles; t++) {
    const at = 84 + t * 50;
    const [a, b, c] = [mesh.indices[t * 3] * 3, mesh.indices[t * 3 + 1] * 3, mesh.indices[t * 3 + 2] * 3];
    const u = [v[b] - v[a], v[b + 1] - v[a + 1], v[b + 2] - v[a + 2]];
    const w = [v[c] - v[a], v[c + 1] - v[a + 1], v[c + 2] - v[a + 2]];
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const length = Math.hypot(n[0], n[1], n[2]) || 1;
    for (let k = 0; k < 3; k++) view.setFloat32(at + k * 4, n[k] / length, true);
    for (let corner = 0; corner < 3; corner++) {
      const vertex = mesh.indices[t * 3 + corner] * 3;
      for (let k = 0; k < 3; k++) view.setFloat32(at + 12 + corner * 12 + k * 4, v[vertex + k], true);
    }
  }
  return bytes;
}

function xmlText(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An object of a 3MF: its mesh, and where its build item puts it on the bed (none: the slicer places it). */
export interface ThreeMfObject {
  name: string;
  mesh: SolidMesh;
  translation?: [number, number, number];
}

/** A 3MF with one object and one build item per entry, so a slicer keeps them apart (and can skip one mid-print). */
export function threeMfObjects(objects: readonly ThreeMfObject[]): Uint8Array {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n',
    '<metadata name="Application">Printyard</metadata>\n<resources>\n',
  ];
  objects.forEach(({ name, mesh }, k) => {
    parts.push(`<object id="${k + 1}" type="model" name="${xmlText(name)}">\n<mesh>\n<vertices>\n`);
    for (let i = 0; i < mesh.vertices.length; i += 3) {
      parts.push(`<vertex x="${mesh.vertices[i]}" y="${mesh.vertices[i + 1]}" z="${mesh.vertices[i + 2]}"/>\n`);
    }
    parts.push('</vertices>\n<triangles>\n');
    for (let i = 0; i < mesh.indices.length; i += 3) {
      parts.push(`<triangle v1="${mesh.indices[i]}" v2="${mesh.indices[i + 1]}" v3="${mesh.indices[i + 2]}"/>\n`);
    }
    parts.push('</triangles>\n</mesh>\n</object>\n');
  });
  parts.push('</resources>\n<build>\n');
  objects.forEach(({ translation }, k) => {
    const transform = translation ? ` transform="1 0 0 0 1 0 0 0 1 ${translation.join(' ')}"` : '';
    parts.push(`<item objectid="${k + 1}"${transform}/>\n`);
  });
  parts.push('</build>\n</model>\n');
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>\n',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>' +
        '</Relationships>\n',
    ),
    '3D/3dmodel.model': strToU8(parts.join('')),
  });
}

export function threeMf(mesh: SolidMesh, name: string): Uint8Array {
  return threeMfObjects([{ name, mesh }]);
}

export function meshFile(mesh: SolidMesh, name: string, format: MeshFormat): Uint8Array {
  return format === 'stl' ? binaryStl(mesh, name) : threeMf(mesh, name);
}
