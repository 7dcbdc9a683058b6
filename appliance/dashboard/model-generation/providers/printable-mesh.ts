/**
 * A provider's model file to a printable solid: read (STL, 3MF or OBJ, by the mesh tools' reader),
 * turned from the provider's Y-up axes to the printer's Z-up, repaired (the mesh tools' repair:
 * weld, drop degenerate and duplicate faces, orient shells, fill holes), refused when it is still
 * not a closed solid, and scaled so its largest side is the size asked for, centred on x/y = 0 and
 * resting on z = 0 like every generated model.
 */
import { concatMeshes } from '../../../slicer/index.js';
import { readMeshModel } from '../../mesh-tools/read-model.js';
import { repairForOutput, type RepairChanges } from '../../mesh-tools/repair.js';
import type { SolidMesh } from '../geometry/manifold.js';

export interface PrintableMesh {
  mesh: SolidMesh;
  /** What repair changed on the provider's mesh. */
  repair: RepairChanges;
  /** The provider's file format as read (`stl-binary`, `obj`, …). */
  sourceFormat: string;
}

/** A quarter turn about x: the provider's up (y) becomes z; a rotation, so the faces keep their winding. */
function yUpToZUp(mesh: SolidMesh): SolidMesh {
  const v = mesh.vertices.slice();
  for (let k = 0; k < v.length; k += 3) {
    const y = v[k + 1];
    v[k + 1] = -v[k + 2];
    v[k + 2] = y;
  }
  return { vertices: v, indices: mesh.indices };
}

function scaledOnBed(mesh: SolidMesh, largestSideMm: number): SolidMesh {
  const v = mesh.vertices;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < v.length; k++) {
    min[k % 3] = Math.min(min[k % 3], v[k]);
    max[k % 3] = Math.max(max[k % 3], v[k]);
  }
  const side = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const scale = largestSideMm / side;
  const origin = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, min[2]];
  const out = new Float32Array(v.length);
  for (let k = 0; k < v.length; k++) out[k] = (v[k] - origin[k % 3]) * scale;
  return { vertices: out, indices: mesh.indices };
}

export function printableMesh(bytes: Uint8Array, fileName: string, largestSideMm: number, upAxis: 'y' | 'z'): PrintableMesh {
  let model: ReturnType<typeof readMeshModel>;
  try {
    model = readMeshModel(bytes, fileName);
  } catch (err) {
    throw new Error(`the provider's model file cannot be read: ${(err as Error).message}`);
  }
  const read = concatMeshes(model.objects.map((o) => o.mesh));
  if (read.indices.length === 0) throw new Error("the provider's model has no triangles");
  const repaired = repairForOutput(upAxis === 'y' ? yUpToZUp(read) : read);
  const { openEdgesLeft, nonManifoldEdgesLeft } = repaired.changes;
  if (openEdgesLeft > 0 || nonManifoldEdgesLeft > 0) {
    throw new Error(
      `the provider's model is not a closed solid even after repair (${openEdgesLeft} open edges, ` +
        `${nonManifoldEdgesLeft} edges shared by more than two faces)`,
    );
  }
  if (!(repaired.volume > 0)) throw new Error("the provider's model encloses no volume");
  return { mesh: scaledOnBed(repaired.mesh, largestSideMm), repair: repaired.changes, sourceFormat: model.sourceFormat };
}
