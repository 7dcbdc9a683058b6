/** Messages between a caller and the process that runs one slice, preview or measurement for it (see task-process.ts). */
import type { InflateLimits } from '../../common/zip.js';
import type { SliceMetadata, SliceResult, SliceStage } from '../engine/api.js';
import type { HeightChange } from '../engine/gcode/height-changes.js';
import type { BBox3 } from '../engine/mesh/types.js';
import type { MeshView } from '../engine/preview/mesh-render.js';
import type { PrintConfig } from '../profiles/schema.js';

/** What every task loads: a model file, whose 3MF parts may inflate only so far. */
interface ModelTask {
  modelPath: string;
  fileName: string;
  inflateLimits: InflateLimits;
}

export interface SliceTask extends ModelTask {
  kind: 'slice';
  config: PrintConfig;
  outputPath: string;
  previewPath: string;
  metadata: SliceMetadata;
  /** Geometry threads of the engine; null lets the engine decide. */
  engineThreads: number | null;
  /** Largest G-code file, and free space to keep on the output's disk (the engine's SliceRequest); default none. */
  maxOutputBytes?: number;
  minFreeBytes?: number;
  /** Settings that change with height (the engine's SliceRequest); default none. */
  heightChanges?: HeightChange[];
}

export interface PreviewTask extends ModelTask {
  kind: 'preview';
  width: number;
  height: number;
  view: MeshView;
}

/** The bounding box of a model file, as loaded (the dashboard's desktop-slicer bridge needs it before slicing). */
export interface BoundsTask extends ModelTask {
  kind: 'bounds';
}

export type WorkerTask = SliceTask | PreviewTask | BoundsTask;

/** What a finished slice reports (the preview PNG is already written to `previewPath`). */
export type SlicedSummary = Pick<SliceResult, 'outputPath' | 'format' | 'sizeBytes' | 'layers' | 'estimatedTimeS' | 'filament' | 'warnings'>;

export type WorkerMessage =
  | { type: 'progress'; stage: SliceStage; pct: number }
  | { type: 'layer'; layer: number; total_layers: number }
  | { type: 'sliced'; summary: SlicedSummary }
  | { type: 'rendered'; png: Uint8Array }
  | { type: 'measured'; bounds: BBox3 }
  | { type: 'failed'; code: string; status: number; message: string }
  /** Sent just before the final message: the task process's peak resident memory. */
  | { type: 'usage'; peakRssBytes: number };

/** The task itself comes first, then perhaps a cancel. */
export type ParentMessage = WorkerTask | { type: 'cancel' };
