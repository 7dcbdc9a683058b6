/**
 * manifold-3d (WASM) loaded once and shared: every generator builds its solid from its extrusions
 * and booleans, which give closed, consistently oriented, 2-manifold meshes by construction (the
 * tests still check each result). Objects it returns hold WASM memory: `disposing` frees what a
 * generator made once the final mesh is copied out.
 */
import Module, { type CrossSection, type Manifold, type ManifoldToplevel } from 'manifold-3d';

export type { CrossSection, Manifold, ManifoldToplevel };

/** A closed triangle mesh in millimetres: xyz per vertex, three vertex indices per triangle (counter-clockwise seen from outside). */
export interface SolidMesh {
  vertices: Float32Array;
  indices: Uint32Array;
}

let loading: Promise<ManifoldToplevel> | null = null;

export function manifoldKernel(): Promise<ManifoldToplevel> {
  loading ??= Module().then((kernel) => {
    kernel.setup();
    return kernel;
  });
  return loading;
}

/** Tracks the WASM objects a generator creates, and frees them all after `build` returns. */
export async function disposing<T>(build: (keep: <O extends { delete(): void }>(object: O) => O) => T | Promise<T>): Promise<T> {
  const made: { delete(): void }[] = [];
  try {
    return await build((object) => {
      made.push(object);
      return object;
    });
  } finally {
    for (const object of made) object.delete();
  }
}

/** Copies the solid out of WASM memory, resting on the bed (z from 0) and centred on x/y = 0. */
export function solidMesh(solid: Manifold): SolidMesh {
  if (solid.status() !== 'NoError') throw new Error(`the solid is not valid: ${solid.status()}`);
  const mesh = solid.getMesh();
  const box = solid.boundingBox();
  const shift = [-(box.min[0] + box.max[0]) / 2, -(box.min[1] + box.max[1]) / 2, -box.min[2]];
  const count = mesh.vertProperties.length / mesh.numProp;
  const vertices = new Float32Array(count * 3);
  for (let v = 0; v < count; v++) {
    for (let axis = 0; axis < 3; axis++) vertices[v * 3 + axis] = mesh.vertProperties[v * mesh.numProp + axis] + shift[axis];
  }
  return { vertices, indices: Uint32Array.from(mesh.triVerts) };
}
