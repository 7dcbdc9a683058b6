/**
 * The job queue: at most `workers` jobs run (each in a process of its own), at most `queueSize` wait,
 * in order of arrival; beyond that a submission is refused with 429. Running jobs are cancelled
 * after the time-out. On shutdown the waiting jobs are cancelled and the running ones get a grace
 * period before they are cancelled too.
 */
import { AppError, ErrorCode, toAppError } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import type { InflateLimits } from '../../common/zip.js';
import type { SlicedSummary } from '../run/task-protocol.js';
import { runSlice, type TaskHandle } from '../run/task-runner.js';
import type { Job, JobRecord, SliceResultBody } from './job.js';
import type { JobStore } from './job-store.js';

export const ERR_JOB_TIMEOUT = 'ERR_JOB_TIMEOUT';
export const ERR_SHUTTING_DOWN = 'ERR_SHUTTING_DOWN';
export const ERR_JOB_FINISHED = 'ERR_JOB_FINISHED';

export interface QueueOptions {
  workers: number;
  queueSize: number;
  jobTimeoutMs: number;
  /** Geometry threads per job; null lets the engine decide. */
  engineThreads: number | null;
  /** Largest G-code file of a job. */
  maxOutputBytes: number;
  /** Free space a job leaves on the jobs dir's disk. */
  minFreeBytes: number;
  /** What a 3MF's parts may inflate to. */
  inflateLimits: InflateLimits;
}

export interface QueueSnapshot {
  running: JobRecord[];
  queued: JobRecord[];
  finished: JobRecord[];
}

export function shuttingDown(): AppError {
  return new AppError(ERR_SHUTTING_DOWN, 503, 'the service is shutting down');
}

function round2(values: number[]): number[] {
  return values.map((v) => Math.round(v * 100) / 100);
}

export function resultBody(id: string, s: SlicedSummary): SliceResultBody {
  return {
    ok: true,
    job_id: id,
    gcode_path: s.outputPath,
    gcode_size: s.sizeBytes,
    estimated_time_s: Math.round(s.estimatedTimeS),
    filament_used_g: round2(s.filament.g),
    filament_used_mm: round2(s.filament.mm),
    filament_cost: round2(s.filament.cost),
    layers: s.layers,
    format: s.format,
    warnings: s.warnings,
    gcode_url: `/api/jobs/${id}/gcode`,
    preview_url: `/api/jobs/${id}/preview.png`,
  };
}

export class JobQueue {
  private readonly waiting: Job[] = [];
  private readonly running = new Map<string, TaskHandle<SlicedSummary>>();
  /** Jobs between their end and their record being saved; shutdown waits for them. */
  private readonly settling = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: JobStore,
    private readonly options: QueueOptions,
    private readonly log: Logger,
  ) {}

  get hasRoom(): boolean {
    return !this.closed && (this.running.size < this.options.workers || this.waiting.length < this.options.queueSize);
  }

  /** Queues the job (it starts at once when a worker is free); 429 when the queue is full. */
  submit(job: Job): void {
    if (this.closed) throw shuttingDown();
    if (!this.hasRoom) {
      throw new AppError(
        ErrorCode.tooManyJobs,
        429,
        `the slicer is busy: ${this.running.size} job(s) running and ${this.waiting.length} waiting, the most it holds`,
      );
    }
    this.store.add(job);
    this.waiting.push(job);
    this.log.info(`job ${job.id} queued`, { model: job.modelName });
    this.pump();
  }

  snapshot(): QueueSnapshot {
    const jobs = this.store.all();
    return {
      running: jobs.filter((j) => j.state === 'running').map((j) => j.toJSON()),
      queued: this.waiting.map((j) => j.toJSON()),
      finished: jobs
        .filter((j) => j.isFinished)
        .sort((a, b) => b.finishedAtMs - a.finishedAtMs)
        .map((j) => j.toJSON()),
    };
  }

  /** Cancels a waiting or running job and resolves once it has stopped. */
  async cancel(id: string): Promise<Job> {
    const job = this.store.get(id);
    if (job === undefined) throw new AppError(ErrorCode.jobNotFound, 404, `unknown job "${id}"`);
    if (job.isFinished) throw new AppError(ERR_JOB_FINISHED, 409, `job ${id} has already finished (${job.state})`);
    const reason = new AppError(ErrorCode.cancelled, 409, 'the job was cancelled');
    const index = this.waiting.indexOf(job);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      job.cancel(reason);
      await this.settle(job);
    } else {
      this.running.get(id)?.cancel(reason);
      await job.finished;
    }
    return job;
  }

  /** Stops taking jobs, cancels the waiting ones, and gives the running ones `graceMs` to finish. */
  async shutdown(graceMs: number): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) {
      job.cancel(shuttingDown());
      void this.settle(job);
    }
    const running = this.store.all().filter((j) => j.state === 'running');
    if (running.length > 0) {
      this.log.info(`waiting up to ${graceMs / 1000} s for ${running.length} running job(s)`);
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), graceMs);
      });
      const outcome = await Promise.race([Promise.all(running.map((j) => j.finished)), graceOver]);
      clearTimeout(timer);
      if (outcome === 'late') this.cancelRunning();
      await Promise.all(running.map((j) => j.finished));
    }
    while (this.settling.size > 0) await Promise.all([...this.settling]);
  }

  /** Cancels the running jobs at once (grace period over, or a second stop signal). */
  cancelRunning(): void {
    if (this.running.size === 0) return;
    this.log.warn(`cancelling ${this.running.size} running job(s)`);
    for (const handle of this.running.values()) handle.cancel(shuttingDown());
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.options.workers) {
      const job = this.waiting.shift();
      if (job === undefined) return;
      this.run(job);
    }
  }

  private run(job: Job): void {
    const work = job.work;
    if (work === null) throw new AppError(ErrorCode.internal, 500, `job ${job.id} has nothing to run`);
    job.start();
    this.log.info(`job ${job.id} started`);
    const handle = runSlice(
      {
        kind: 'slice',
        modelPath: work.modelPath,
        fileName: job.modelName,
        config: work.config,
        outputPath: work.outputPath,
        previewPath: work.previewPath,
        metadata: work.metadata,
        engineThreads: this.options.engineThreads,
        maxOutputBytes: this.options.maxOutputBytes,
        minFreeBytes: this.options.minFreeBytes,
        inflateLimits: this.options.inflateLimits,
        heightChanges: work.heightChanges,
      },
      (e) => (e.type === 'progress' ? job.progress(e.stage, e.pct) : job.layer(e.layer, e.total_layers)),
    );
    this.running.set(job.id, handle);
    const seconds = this.options.jobTimeoutMs / 1000;
    const timer = setTimeout(
      () => handle.cancel(new AppError(ERR_JOB_TIMEOUT, 504, `the job ran longer than its time-out of ${seconds} s`)),
      this.options.jobTimeoutMs,
    );
    handle.result
      .then(
        (summary) => job.succeed(resultBody(job.id, summary)),
        (err: unknown) => {
          const e = toAppError(err, ErrorCode.sliceFailed);
          if (e.code === ErrorCode.cancelled || e.code === ERR_SHUTTING_DOWN) job.cancel(e);
          else job.fail(e);
        },
      )
      .finally(() => {
        clearTimeout(timer);
        this.running.delete(job.id);
        const error = job.error;
        const peak = handle.peakRssBytes === null ? {} : { peak_rss_mb: Math.round(handle.peakRssBytes / (1024 * 1024)) };
        this.log.info(`job ${job.id} ${job.state}`, error ? { code: error.code, reason: error.message, ...peak } : peak);
        void this.settle(job);
        this.pump();
      });
  }

  private settle(job: Job): Promise<void> {
    const saving = this.store.finished(job).finally(() => this.settling.delete(saving));
    this.settling.add(saving);
    return saving;
  }
}
