/**
 * What the generator tests check of a generated solid (closed, 2-manifold, outward, on the bed)
 * and how they build one from a generator id and parameters.
 */
import assert from 'node:assert/strict';
import { type SolidMesh, manifoldKernel } from '../../../appliance/dashboard/model-generation/geometry/manifold.js';
import { generatorById } from '../../../appliance/dashboard/model-generation/generators/catalogue.js';
import { withDefaults } from '../../../appliance/dashboard/model-generation/generators/generator.js';

export interface SolidFacts {
  openEdges: number;
  overusedEdges: number;
  flippedEdges: number;
  volume: number;
  size: [number, number, number];
  minZ: number;
}

/** Counts edges used by one face or more than two, edges walked the same way twice, and the signed volume. */
export function solidFacts(mesh: SolidMesh): SolidFacts {
  const directed = new Map<string, number>();
  const undirected = new Map<string, number>();
  const v = mesh.vertices;
  let volume = 0;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const corners = [mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]];
    for (let k = 0; k < 3; k++) {
      const a = corners[k];
      const b = corners[(k + 1) % 3];
      directed.set(`${a}>${b}`, (directed.get(`${a}>${b}`) ?? 0) + 1);
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      undirected.set(key, (undirected.get(key) ?? 0) + 1);
    }
    const [p, q, r] = corners.map((i) => [v[i * 3], v[i * 3 + 1], v[i * 3 + 2]]);
    volume += (p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0]) + p[2] * (q[0] * r[1] - q[1] * r[0])) / 6;
  }
  const counts = [...undirected.values()];
  const min = [0, 1, 2].map((axis) => Math.min(...v.filter((_, i) => i % 3 === axis)));
  const max = [0, 1, 2].map((axis) => Math.max(...v.filter((_, i) => i % 3 === axis)));
  return {
    openEdges: counts.filter((c) => c < 2).length,
    overusedEdges: counts.filter((c) => c > 2).length,
    flippedEdges: [...directed.values()].filter((c) => c > 1).length,
    volume,
    size: [max[0] - min[0], max[1] - min[1], max[2] - min[2]],
    minZ: min[2],
  };
}

export async function generate(id: string, body: Record<string, unknown> = {}) {
  const generator = generatorById(id);
  assert.ok(generator, id);
  const params = withDefaults(generator.schema, body);
  assert.equal(generator.check?.(params) ?? null, null);
  return generator.generate(await manifoldKernel(), params, () => {});
}

export function assertSolid(mesh: SolidMesh): SolidFacts {
  const facts = solidFacts(mesh);
  assert.equal(facts.openEdges, 0, 'every edge is shared by two faces');
  assert.equal(facts.overusedEdges, 0, 'no edge is shared by more than two faces');
  assert.equal(facts.flippedEdges, 0, 'neighbouring faces walk their shared edge in opposite directions');
  assert.ok(facts.volume > 0, `positive volume (outward normals): ${facts.volume}`);
  assert.equal(facts.minZ, 0, 'rests on the bed');
  return facts;
}
