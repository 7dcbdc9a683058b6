/** Triangle meshes as the loaders produce them and the slicer consumes them. */

/** An indexed triangle mesh in millimetres: xyz per vertex, three vertex indices per triangle. */
export interface IndexedMesh {
  vertices: Float32Array;
  indices: Uint32Array;
}

export interface BBox3 {
  min: [number, number, number];
  max: [number, number, number];
}

/** One printable object of a model, in model coordinates after all file transforms. */
export interface ModelObject {
  name: string;
  mesh: IndexedMesh;
  /** 1-based filament (extruder) the object prints with. */
  filament: number;
}

export interface Model {
  objects: ModelObject[];
  /** True when the file positioned its objects on a plate (a 3MF build); false means "centre it". */
  positioned: boolean;
  /** Source format. */
  format: 'stl-binary' | 'stl-ascii' | '3mf';
  /** Things the loader chose to skip or fix, for the job report. */
  warnings: string[];
  /** An embedded thumbnail of the source file (3MF), if any, as PNG bytes. */
  thumbnail?: Uint8Array;
}

/** What repair found and did, per object. */
export interface RepairReport {
  weldedVertices: number;
  degenerateTriangles: number;
  duplicateTriangles: number;
  flippedTriangles: number;
  openEdges: number;
  nonManifoldEdges: number;
  /** True when the mesh was turned inside out and reversed as a whole. */
  invertedShells: number;
  shells: number;
  volume: number;
}
