/** The messages between the jobs (host) and the generation worker thread. */
import type { MeshFormat } from '../geometry/mesh-files.js';
import type { MeshFacts } from '../geometry/mesh-store.js';
import type { ProviderConfig } from '../providers/provider.js';

export interface BuildRequest {
  /** The generator id. */
  generator: string;
  /** The parameters, every default filled in. */
  params: Record<string, unknown>;
  /** The text-to-3D provider, for `remote-text`; null when none is configured. */
  provider: ProviderConfig | null;
  /** The uploaded input of a generator that takes a file (a picture). */
  file?: Uint8Array;
}

export interface BuildResult {
  /** The mesh as stored on disk (mesh-store.ts encodeMesh). */
  stored: Uint8Array;
  facts: MeshFacts;
  notes: Record<string, unknown>;
}

/** A stored mesh to write as a download (decoding it and writing a 3MF of a large model takes a second). */
export interface ConvertRequest {
  stored: Uint8Array;
  format: MeshFormat;
  /** The object's name in the file. */
  name: string;
}

export type ToWorker = { id: number } & (({ kind: 'build' } & BuildRequest) | ({ kind: 'convert' } & ConvertRequest));

export type FromWorker =
  | { id: number; kind: 'progress'; fraction: number }
  | ({ id: number; kind: 'done' } & BuildResult)
  | { id: number; kind: 'converted'; file: Uint8Array }
  | { id: number; kind: 'failed'; message: string };
