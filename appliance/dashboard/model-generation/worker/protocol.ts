/** The messages between the jobs (host) and the generation worker thread. */
import type { MeshFacts } from '../geometry/mesh-store.js';
import type { ProviderConfig } from '../providers/provider.js';

export interface BuildRequest {
  /** The generator id. */
  generator: string;
  /** The parameters, every default filled in. */
  params: Record<string, unknown>;
  /** The text-to-3D provider, for `remote-text`; null when none is configured. */
  provider: ProviderConfig | null;
}

export interface BuildResult {
  /** The mesh as stored on disk (mesh-store.ts encodeMesh). */
  stored: Uint8Array;
  facts: MeshFacts;
  notes: Record<string, unknown>;
}

export type ToWorker = { id: number } & BuildRequest;

export type FromWorker =
  | { id: number; kind: 'progress'; fraction: number }
  | ({ id: number; kind: 'done' } & BuildResult)
  | { id: number; kind: 'failed'; message: string };
