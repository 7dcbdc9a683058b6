/**
 * The dashboard's slicing backends, in the spec's priority order: the remote slicer service, the
 * desktop-slicer bridge, the built-in engine. Each answers the same request; the fallback chain
 * (slicing/fallback.ts) tries them in order and reports which one produced the G-code and why
 * the earlier ones were skipped.
 */
import type { HeightChange } from '../../slicer/index.js';
import type { JobOwner } from './ownership.js';

export type BackendName = 'remote' | 'bridge' | 'native';

export interface SliceJobRequest {
  /** The uploaded model (STL or 3MF) on disk; the backend does not delete it. */
  modelPath: string;
  /** The model's file name as the user uploaded it. */
  modelName: string;
  /** Profile ids of the Printyard catalogue (the slicer service and the built-in engine share it). */
  printerId: string;
  filamentIds: string[];
  processId: string;
  /** OrcaSlicer-named setting overrides, values as the slice form's JSON gives them ("15%", 0.2, [215]). */
  overrides: Record<string, unknown>;
  /** Settings that change with height (the slice form's `height_changes`); the bridge cannot apply them and passes. */
  heightChanges?: HeightChange[];
  /** Where the backend writes the result (`.gcode` or `.gcode.3mf`, as the printer needs). */
  outputDir: string;
  /** Who asked for the slice: the remote backend remembers it for the service's job. */
  owner: JobOwner;
  /** Aborts the slice (client gone, time-out); the backend stops its work and rejects. */
  signal: AbortSignal;
  /** Progress for event streams; optional. */
  onProgress?: (event: { stage: string; pct: number }) => void;
}

export interface SliceJobResult {
  backend: BackendName;
  gcodePath: string;
  format: 'gcode' | 'gcode.3mf';
  sizeBytes: number;
  layers: number | null;
  estimatedTimeS: number | null;
  filamentMm: number[];
  filamentG: number[];
  durationMs: number;
  /** Backends tried before this one, with the reason each was passed over. */
  skipped: { backend: BackendName; reason: string }[];
  warnings: string[];
}

/** Why a backend could not take the job; the chain moves on to the next backend. */
export interface Unavailable {
  available: false;
  reason: string;
}

export interface SlicingBackend {
  readonly name: BackendName;
  /** Cheap check (cached probes, a binary on PATH); never throws. */
  availability(): Promise<{ available: true } | Unavailable>;
  /**
   * Slices. Throws AppError: a user's fault (bad model 4xx, unknown profile 404, bad setting 400)
   * is returned to the caller as is; `BackendUnavailableError` (below) moves the chain on.
   */
  slice(request: SliceJobRequest): Promise<Omit<SliceJobResult, 'skipped'>>;
}

/** Thrown by a backend that turned out unusable mid-call (connection refused, 501, incompatible API). */
export class BackendUnavailableError extends Error {
  constructor(
    readonly backend: BackendName,
    reason: string,
  ) {
    super(reason);
    this.name = 'BackendUnavailableError';
  }
}
