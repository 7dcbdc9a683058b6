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

/** A model on the bed: every object resting on z = 0, all inside the printable volume. */
export interface PlacedModel {
  objects: ModelObject[];
  /** Bounds of all objects together, in bed coordinates. */
  bounds: BBox3;
}

/** What repair found and did, per object. */
export interface RepairReport {
  weldedVertices: number;
  degenerateTriangles: number;
  duplicateTriangles: number;
  flippedTriangles: number;
  /** Edges used by one triangle, after repair. */
  openEdges: number;
  /** Edges used by more than two triangles, after repair. */
  nonManifoldEdges: number;
  /**
   * The same two counts on the input once welded, before degenerate and duplicate triangles
   * were dropped (dropping them often mends edges, e.g. a zero-area sliver doubling a real edge).
   */
  inputOpenEdges?: number;
  inputNonManifoldEdges?: number;
  /** Shells that were inside out: more than half of their triangles had to be reversed. */
  invertedShells: number;
  /** Edge-connected pieces of the surface. */
  shells: number;
  /** Enclosed volume in mm³, cavities subtracted (approximate for open shells). */
  volume: number;
}
