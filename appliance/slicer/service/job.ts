/**
 * One slice job: its public record (what GET /api/jobs shows), its state transitions, and the
 * listeners (event streams, buffered replies) that follow it. Transitions:
 *
 *   queued ──start──> running ──succeed──> done
 *     │                  ├──────fail─────> failed      (engine error, time-out)
 *     └──────cancel──────┴─────cancel────> cancelled   (cancel call, shutdown)
 */
import type { AppError } from '../../common/errors.js';
import type { SliceMetadata, SliceStage } from '../engine/api.js';
import type { HeightChange } from '../engine/gcode/height-changes.js';
import type { PrintConfig } from '../profiles/schema.js';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** The contract's Slice result, plus a few fields a client needs to use it. */
export interface SliceResultBody {
  ok: true;
  job_id: string;
  gcode_path: string;
  gcode_size: number;
  estimated_time_s: number;
  filament_used_g: number[];
  filament_used_mm: number[];
  filament_cost: number[];
  layers: number;
  format: 'gcode' | 'gcode.3mf';
  warnings: string[];
  gcode_url: string;
  preview_url: string;
}

export interface JobFailure {
  code: string;
  message: string;
}

export interface JobRecord {
  id: string;
  state: JobState;
  model_name: string;
  model_size: number;
  printer_id: string;
  filament_ids: string[];
  process_id: string;
  overrides: Record<string, unknown> | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  stage: SliceStage | null;
  pct: number;
  layer: number | null;
  total_layers: number | null;
  result: SliceResultBody | null;
  error: JobFailure | null;
}

export type JobEvent =
  | { type: 'progress'; stage: SliceStage; pct: number }
  | { type: 'layer'; layer: number; total_layers: number }
  | { type: 'finished' };

/** What running the job needs; restored (finished) jobs have none. */
export interface JobWork {
  modelPath: string;
  config: PrintConfig;
  metadata: SliceMetadata;
  outputPath: string;
  previewPath: string;
  /** Settings that change with height, from the form's `height_changes`. */
  heightChanges?: HeightChange[];
}

export interface NewJob {
  id: string;
  dir: string;
  modelName: string;
  modelSize: number;
  printerId: string;
  filamentIds: string[];
  processId: string;
  overrides: Record<string, unknown> | null;
  work: JobWork;
}

export const FINISHED_STATES: readonly JobState[] = ['done', 'failed', 'cancelled'];

export class Job {
  /** HTTP status of the failure, for a client waiting for a buffered reply. */
  failureStatus = 500;
  readonly finished: Promise<void>;
  private readonly listeners = new Set<(e: JobEvent) => void>();
  private markFinished!: () => void;

  private constructor(
    readonly dir: string,
    private readonly rec: JobRecord,
    readonly work: JobWork | null,
  ) {
    this.finished = new Promise((resolve) => {
      this.markFinished = resolve;
    });
    if (this.isFinished) this.markFinished();
  }

  static create(n: NewJob, now = new Date()): Job {
    return new Job(
      n.dir,
      {
        id: n.id,
        state: 'queued',
        model_name: n.modelName,
        model_size: n.modelSize,
        printer_id: n.printerId,
        filament_ids: n.filamentIds,
        process_id: n.processId,
        overrides: n.overrides,
        created_at: now.toISOString(),
        started_at: null,
        finished_at: null,
        stage: null,
        pct: 0,
        layer: null,
        total_layers: null,
        result: null,
        error: null,
      },
      n.work,
    );
  }

  /** A finished job read back from disk after a restart. */
  static restore(dir: string, record: JobRecord): Job {
    return new Job(dir, record, null);
  }

  get id(): string {
    return this.rec.id;
  }

  get modelName(): string {
    return this.rec.model_name;
  }

  get state(): JobState {
    return this.rec.state;
  }

  get isFinished(): boolean {
    return FINISHED_STATES.includes(this.rec.state);
  }

  /** When the job finished (ms since the epoch), or NaN while it has not. */
  get finishedAtMs(): number {
    return this.rec.finished_at === null ? NaN : Date.parse(this.rec.finished_at);
  }

  get result(): SliceResultBody | null {
    return this.rec.result;
  }

  get error(): JobFailure | null {
    return this.rec.error;
  }

  toJSON(): JobRecord {
    return { ...this.rec, filament_ids: [...this.rec.filament_ids] };
  }

  /** Follows the job's events; returns the function that stops following. */
  subscribe(listener: (e: JobEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(now = new Date()): void {
    if (this.rec.state !== 'queued') return;
    this.rec.state = 'running';
    this.rec.started_at = now.toISOString();
  }

  progress(stage: SliceStage, pct: number): void {
    if (this.isFinished) return;
    this.rec.stage = stage;
    this.rec.pct = pct;
    this.emit({ type: 'progress', stage, pct });
  }

  layer(layer: number, total: number): void {
    if (this.isFinished) return;
    this.rec.layer = layer;
    this.rec.total_layers = total;
    this.emit({ type: 'layer', layer, total_layers: total });
  }

  succeed(result: SliceResultBody, now = new Date()): void {
    this.rec.result = result;
    this.rec.pct = 100;
    this.finish('done', null, now);
  }

  fail(err: AppError, now = new Date()): void {
    this.failureStatus = err.status;
    this.finish('failed', { code: err.code, message: err.message }, now);
  }

  cancel(err: AppError, now = new Date()): void {
    this.failureStatus = err.status;
    this.finish('cancelled', { code: err.code, message: err.message }, now);
  }

  private finish(state: JobState, error: JobFailure | null, now: Date): void {
    if (this.isFinished) return;
    this.rec.state = state;
    this.rec.error = error;
    this.rec.finished_at = now.toISOString();
    this.emit({ type: 'finished' });
    this.listeners.clear();
    this.markFinished();
  }

  private emit(event: JobEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
