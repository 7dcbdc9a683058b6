/**
 * The mesh tools' repair: the engine's repair (weld, drop degenerate and duplicate triangles,
 * orient shells outward), then holes filled by fanning each boundary loop, then the engine's
 * repair once more to orient the new triangles with their shells and measure the result. The
 * engine alone leaves holes to the slicer's 2D crack closing; a file handed back to a user or to
 * another slicer should be closed.
 */
import { repairMesh, type IndexedMesh, type RepairReport } from '../../slicer/index.js';
import { boundaryLoops } from './measure.js';

/** What repair found and changed on one mesh. */
export interface RepairChanges {
  weldedVertices: number;
  degenerateRemoved: number;
  duplicatesRemoved: number;
  /** Triangles reversed to face outward, consistently with their neighbours. */
  trianglesFlipped: number;
  holesFilled: number;
  trianglesAdded: number;
  /** Still open or shared by more than two triangles after repair. */
  openEdgesLeft: number;
  nonManifoldEdgesLeft: number;
}

export interface MeshRepair {
  mesh: IndexedMesh;
  /** The engine's report on the input (counts before filling). */
  found: RepairReport;
  changes: RepairChanges;
  /** Boundary loops that could not be filled (two holes meeting at a vertex). */
  tangledHoles: number;
  /** The repaired mesh's shells and volume. */
  shells: number;
  volume: number;
}

/** Fan triangles over each closed boundary loop, in the winding the loop gives. */
function fillHoles(mesh: IndexedMesh): { mesh: IndexedMesh; holes: number; added: number; tangled: number } {
  const { loops, tangled } = boundaryLoops(mesh.indices);
  if (loops.length === 0) return { mesh, holes: 0, added: 0, tangled };
  const added = loops.reduce((sum, loop) => sum + loop.length - 2, 0);
  const indices = new Uint32Array(mesh.indices.length + added * 3);
  indices.set(mesh.indices);
  let k = mesh.indices.length;
  for (const loop of loops) {
    for (let i = 1; i + 1 < loop.length; i++) {
      indices[k++] = loop[0];
      indices[k++] = loop[i];
      indices[k++] = loop[i + 1];
    }
  }
  return { mesh: { vertices: mesh.vertices, indices }, holes: loops.length, added, tangled };
}

export function repairForOutput(mesh: IndexedMesh): MeshRepair {
  const first = repairMesh(mesh);
  const filled = fillHoles(first.mesh);
  const second = filled.holes > 0 ? repairMesh(filled.mesh) : first;
  const found = first.report;
  return {
    mesh: second.mesh,
    found,
    changes: {
      weldedVertices: found.weldedVertices,
      degenerateRemoved: found.degenerateTriangles + (filled.holes > 0 ? second.report.degenerateTriangles : 0),
      duplicatesRemoved: found.duplicateTriangles + (filled.holes > 0 ? second.report.duplicateTriangles : 0),
      trianglesFlipped: found.flippedTriangles,
      holesFilled: filled.holes,
      trianglesAdded: filled.added,
      openEdgesLeft: second.report.openEdges,
      nonManifoldEdgesLeft: second.report.nonManifoldEdges,
    },
    tangledHoles: filled.tangled,
    shells: second.report.shells,
    volume: second.report.volume,
  };
}
