/**
 * An uploaded model to named meshes: STL and 3MF through the engine's loader (the format told by
 * content), OBJ by its own reader. A 3MF keeps its objects apart; the other formats hold one.
 */
import { loadModel, type IndexedMesh } from '../../slicer/index.js';
import { looksLikeObj, parseObj } from './obj.js';

export type MeshFormat = 'stl' | '3mf' | 'obj';
export const MESH_FORMATS: readonly MeshFormat[] = ['stl', '3mf', 'obj'];

export interface MeshObject {
  name: string;
  mesh: IndexedMesh;
}

export interface MeshModel {
  /** What the upload was, in detail (`stl-binary`, `stl-ascii`, `3mf`, `obj`). */
  sourceFormat: string;
  /** The family of the upload: the default format of the answer. */
  format: MeshFormat;
  objects: MeshObject[];
  /** What the loader skipped or fixed while reading. */
  warnings: string[];
}

/** `fileName` names a single-object model and, ending in .stl, says that unreadable bytes were meant as a binary STL. */
export function readMeshModel(bytes: Uint8Array, fileName: string): MeshModel {
  // "solid" starts ASCII STL, "PK" a zip: neither is OBJ even when its first kilobytes look like text.
  const head = new TextDecoder().decode(bytes.subarray(0, 5)).toLowerCase();
  if (head !== 'solid' && !head.startsWith('pk') && looksLikeObj(bytes)) {
    const name = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'model';
    return { sourceFormat: 'obj', format: 'obj', objects: [{ name, mesh: parseObj(bytes) }], warnings: [] };
  }
  const model = loadModel(bytes, fileName);
  return {
    sourceFormat: model.format,
    format: model.format === '3mf' ? '3mf' : 'stl',
    objects: model.objects.map((o) => ({ name: o.name, mesh: o.mesh })),
    warnings: model.warnings,
  };
}
