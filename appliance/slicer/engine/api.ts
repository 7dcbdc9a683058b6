/** Public types of the slicing engine: what a caller passes in and gets back. */
import type { InflateLimits } from '../../common/zip.js';
import type { PrintConfig } from '../profiles/schema.js';
import type { HeightChange } from './gcode/height-changes.js';
import type { RepairReport } from './mesh/types.js';

export type SliceStage = 'loading' | 'repairing' | 'slicing' | 'gcode';

export interface ProgressEvent {
  stage: SliceStage;
  /** Overall completion percent, 0..100, never decreasing. */
  pct: number;
}

export interface LayerEvent {
  stage: SliceStage;
  layer: number;
  total_layers: number;
}

export interface SliceMetadata {
  printerId?: string;
  filamentIds?: string[];
  processId?: string;
  printerName?: string;
  filamentNames?: string[];
  processName?: string;
}

export interface SliceRequest {
  /**
   * Model file bytes (STL or 3MF), or a function that reads them: the engine then holds the bytes
   * only while it parses them, not for the whole slice (a 6.5 MB ASCII STL is 6.5 MB less at the peak).
   */
  model: Uint8Array | (() => Promise<Uint8Array>);
  /** File name of the model (used for names and labels, not for the format). */
  fileName: string;
  /** The fully resolved configuration (printer + filaments + process + overrides). */
  config: PrintConfig;
  /** Where to write the result: a `.gcode` file, or a `.gcode.3mf` package for the Bambu flavour. */
  outputPath: string;
  metadata?: SliceMetadata;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  onLayer?: (event: LayerEvent) => void;
  /** Worker threads for geometry (0 = all in this thread); default: none for small jobs, else one per core. */
  workers?: number;
  /** Render the top-down toolpath preview (default true); a caller with no use for it saves the time. */
  preview?: boolean;
  /**
   * Largest G-code file in bytes (default: no limit). Checked while it is written: past it the
   * slice fails with 422 ERR_OUTPUT_TOO_LARGE and the partial files are removed.
   */
  maxOutputBytes?: number;
  /**
   * Free bytes to keep on the output's disk (default 0: only a full disk stops it). Checked before
   * writing starts and before every megabyte; a slice that would leave less, or that meets a full
   * disk, fails with 507 ERR_INSUFFICIENT_STORAGE and the partial files are removed.
   */
  minFreeBytes?: number;
  /** What a 3MF's parts may inflate to (default `DEFAULT_3MF_LIMITS` of mesh/opc.ts); beyond, 413 ERR_PAYLOAD_TOO_LARGE. */
  inflateLimits?: InflateLimits;
  /** Settings that change with height (a calibration print's), applied from the first layer at or above each `z_from`. */
  heightChanges?: readonly HeightChange[];
}

export interface FilamentUsage {
  mm: number[];
  cm3: number[];
  g: number[];
  cost: number[];
}

export interface SliceResult {
  outputPath: string;
  format: 'gcode' | 'gcode.3mf';
  sizeBytes: number;
  layers: number;
  estimatedTimeS: number;
  filament: FilamentUsage;
  /** Bounding box of everything extruded: [minX, minY, minZ, maxX, maxY, maxZ]. */
  bounds: [number, number, number, number, number, number];
  repair: RepairReport[];
  warnings: string[];
  /** Top-down preview of the toolpaths, PNG bytes; null when the request turned it off. */
  preview: Uint8Array | null;
}
