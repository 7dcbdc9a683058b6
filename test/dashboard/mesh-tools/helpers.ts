/** What the mesh-tool tests share: the dashboard with the mesh tools alone, uploads, and meshes with known defects. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meshToolsFeature } from '../../../appliance/dashboard/features.js';
import type { IndexedMesh } from '../../../appliance/slicer/engine/mesh/types.js';
import { type DashboardFixture, startDashboardFixture, TEST_TOKENS, testAuthenticator, type TestResponse } from '../../fixtures/dashboard.js';
import { box, merge } from '../../fixtures/meshes.js';

export function startMeshTools(): Promise<DashboardFixture> {
  return startDashboardFixture({ features: [meshToolsFeature], createAuthenticator: testAuthenticator, config: { rate_limit: { enabled: false } } });
}

export interface BinaryResponse extends TestResponse {
  bytes: Buffer;
  report: any;
}

/** Uploads a model to a mesh route; the body comes back as bytes, X-Mesh-Report parsed. */
export async function upload(dash: DashboardFixture, path: string, model: Uint8Array | string): Promise<BinaryResponse> {
  const response = await fetch(dash.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKENS.print}`, 'content-type': 'application/octet-stream' },
    body: typeof model === 'string' ? model : Buffer.from(model),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  const header = response.headers.get('x-mesh-report');
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: isJson ? JSON.parse(text) : undefined,
    bytes,
    report: header ? JSON.parse(header) : undefined,
  };
}

export function reversed(mesh: IndexedMesh, triangles: (t: number) => boolean): IndexedMesh {
  const indices = Uint32Array.from(mesh.indices);
  for (let t = 0; t < indices.length / 3; t++) {
    if (!triangles(t)) continue;
    [indices[t * 3 + 1], indices[t * 3 + 2]] = [indices[t * 3 + 2], indices[t * 3 + 1]];
  }
  return { vertices: mesh.vertices, indices };
}

/**
 * A 20 × 20 × 10 box with one triangle missing (a hole of three edges) and one reversed, and a
 * 10 mm cube beside it with a triangle repeated: volume 4000 + 1000 mm³ once repaired.
 */
export function brokenMesh(): IndexedMesh {
  const plate = reversed(box(20, 20, 10), (t) => t === 5);
  const holed: IndexedMesh = { vertices: plate.vertices, indices: plate.indices.slice(3) };
  const cube = box(10, 10, 10, [30, 0, 0]);
  const doubled: IndexedMesh = { vertices: cube.vertices, indices: Uint32Array.from([...cube.indices, ...cube.indices.slice(0, 3)]) };
  return merge([holed, doubled]);
}

/** A 30 mm cube with a 10 mm cavity inside, its faces inward: volume 27000 − 1000 mm³, two shells, one part. */
export function hollowCube(): IndexedMesh {
  return merge([box(30, 30, 30), reversed(box(10, 10, 10, [10, 10, 10]), () => true)]);
}

/** A temp folder with files written into it, for admesh and the G-code checker, which read paths. */
export class TempFiles {
  readonly dir = mkdtempSync(join(tmpdir(), 'printyard-mesh-tools-'));

  write(name: string, bytes: Uint8Array): string {
    const path = join(this.dir, name);
    writeFileSync(path, bytes);
    return path;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
