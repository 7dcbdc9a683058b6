/**
 * Generation jobs: created from a generator and its parameters, run one at a time (the box has
 * two cores shared with slicing and printing) on the generation worker thread, so a build never
 * holds the dashboard's event loop; their progress published on the bus as
 * `model.job`, kept in `model-jobs.json` (an atomic store) with each result mesh in
 * `model-generation/<id>.mesh` (and an uploaded input file in `<id>.upload` until its job has
 * run). At most MAX_JOBS are kept: a new job drops the oldest finished ones that no scene uses
 * (`pinned`); past MAX_PENDING unfinished jobs a new one is refused. Jobs unfinished at a restart
 * are marked failed (their work was lost with the process). Deleting a running job ends its build
 * (its worker thread is ended; the next job starts a fresh one), and so does stopping.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EventBus } from '../../common/event-bus.js';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore, JsonStores } from '../../common/json-store.js';
import { writeFileAtomic } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import type { DashboardEvents } from '../events.js';
import type { SolidMesh } from './geometry/manifold.js';
import type { MeshFormat } from './geometry/mesh-files.js';
import { decodeMesh, type MeshFacts } from './geometry/mesh-store.js';
import { GENERATORS, generatorById } from './generators/catalogue.js';
import { type Generator, withDefaults } from './generators/generator.js';
import type { ProviderConfig } from './providers/provider.js';
import { REMOTE_TEXT_ID, remoteTextGenerator } from './providers/remote-text.js';
import { GenerationWorker, type GenerationWorkerOptions } from './worker/generation-worker.js';

export const MAX_JOBS = 50;
export const MAX_PENDING = 8;
export const JOBS_STORE = 'model-jobs.json';
export const RESULTS_DIR = 'model-generation';

export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface ModelJob {
  id: string;
  generator: string;
  /** The parameters with every default filled in. */
  params: Record<string, unknown>;
  state: JobState;
  /** 0 to 1. */
  progress: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  result: (MeshFacts & { notes: Record<string, unknown> }) | null;
}

interface JobsFile {
  jobs: ModelJob[];
}

function jobsProblem(data: unknown): string | null {
  const jobs = (data as JobsFile | null)?.jobs;
  if (!Array.isArray(jobs)) return 'jobs is not a list';
  const bad = jobs.findIndex((j) => typeof j?.id !== 'string' || !JOB_STATES.includes(j.state) || typeof j.generator !== 'string');
  return bad < 0 ? null : `job ${bad} is not a job`;
}

export interface ModelJobsOptions {
  dataDir: string;
  stores: JsonStores;
  bus: EventBus<DashboardEvents>;
  log: Logger;
  /** Jobs a scene uses: never dropped to make room (they go only when deleted). */
  pinned?: (id: string) => boolean;
  /** The text-to-3D provider as configured now, or null (read when a job is created and when it runs). */
  provider?: () => ProviderConfig | null;
  worker?: GenerationWorkerOptions;
}

export class ModelJobs {
  private store: JsonStore<JobsFile> | null = null;
  /** Ids deleted while they ran: their result is dropped when the generator returns. */
  private readonly dropped = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  private stopping = false;
  private readonly worker: GenerationWorker;

  constructor(private readonly options: ModelJobsOptions) {
    this.worker = new GenerationWorker(options.worker);
  }

  private provider(): ProviderConfig | null {
    return this.options.provider?.() ?? null;
  }

  /** The generators offered now: the box's own, and the remote provider's when one is configured. */
  generators(): Generator[] {
    const provider = this.provider();
    return provider ? [...GENERATORS, remoteTextGenerator(provider)] : [...GENERATORS];
  }

  /** Worker threads started so far, and the one alive now (for the system info). */
  get workerInfo(): { threads_started: number; thread_alive: boolean } {
    return { threads_started: this.worker.started, thread_alive: this.worker.threadId !== null };
  }

  private get resultsDir(): string {
    return path.join(this.options.dataDir, RESULTS_DIR);
  }

  private file(id: string): string {
    return path.join(this.resultsDir, `${id}.mesh`);
  }

  private uploadFile(id: string): string {
    return path.join(this.resultsDir, `${id}.upload`);
  }

  private jobsFile(): JsonStore<JobsFile> {
    if (!this.store) throw new AppError(ErrorCode.unavailable, 503, 'model generation is starting');
    return this.store;
  }

  async open(): Promise<void> {
    await mkdir(this.resultsDir, { recursive: true });
    const store = await this.options.stores.open<JobsFile>(JOBS_STORE, { jobs: [] }, jobsProblem);
    // A generator's first check may load what it needs (the text generator parses its font, a
    // few hundred ms on the box): done here, not in the middle of a request while builds run.
    for (const generator of GENERATORS) generator.check?.(withDefaults(generator.schema, {}));
    const interrupted = store.data.jobs.filter((j) => j.state === 'queued' || j.state === 'running');
    for (const job of interrupted) Object.assign(job, { state: 'failed', error: 'interrupted by a restart', finished_at: new Date().toISOString() });
    if (interrupted.length > 0) await store.write();
    await Promise.all(interrupted.map((j) => rm(this.uploadFile(j.id), { force: true })));
    this.store = store;
  }

  /** Ends the running build (the job is marked failed), leaves queued jobs to the next start, and ends the worker thread. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.worker.close();
    await this.chain;
  }

  /** Jobs kept (0 before open). */
  get size(): number {
    return this.store?.data.jobs.length ?? 0;
  }

  list(): ModelJob[] {
    return [...this.jobsFile().data.jobs].reverse();
  }

  get(id: string): ModelJob {
    const job = this.jobsFile().data.jobs.find((j) => j.id === id);
    if (!job) throw new AppError(ErrorCode.notFound, 404, `no generation job ${id}`);
    return job;
  }

  /**
   * Checks the parameters (and the uploaded file of a generator that takes one), records the job
   * and queues it; the body was validated against the generator's schema.
   */
  async create(generatorId: string, body: Record<string, unknown>, file?: Buffer): Promise<ModelJob> {
    const generator = this.generators().find((g) => g.id === generatorId);
    if (!generator) {
      const why = generatorId === REMOTE_TEXT_ID ? ': no text-to-3D provider is configured (settings: model_provider)' : '';
      throw new AppError(ErrorCode.notFound, 404, `no generator ${generatorId}${why}`);
    }
    const params = withDefaults(generator.schema, body);
    const problem = generator.check?.(params) ?? (generator.upload && file ? generator.upload.check(file, params) : null);
    if (problem) throw new AppError(ErrorCode.validation, 400, problem, [{ path: 'body', message: problem }]);
    const store = this.jobsFile();
    if (store.data.jobs.filter((j) => j.state === 'queued' || j.state === 'running').length >= MAX_PENDING) {
      throw new AppError(ErrorCode.tooManyJobs, 429, `${MAX_PENDING} generation jobs are already waiting; try again when one is done`);
    }
    const job: ModelJob = {
      id: randomUUID(),
      generator: generator.id,
      params,
      state: 'queued',
      progress: 0,
      created_at: new Date().toISOString(),
      started_at: null,
      finished_at: null,
      error: null,
      result: null,
    };
    const finished = store.data.jobs.filter((j) => (j.state === 'done' || j.state === 'failed') && !this.options.pinned?.(j.id));
    const excess = store.data.jobs.length + 1 - MAX_JOBS;
    const evicted = new Set(finished.slice(0, Math.max(0, excess)).map((j) => j.id));
    store.data.jobs = store.data.jobs.filter((j) => !evicted.has(j.id));
    if (file) await writeFileAtomic(this.uploadFile(job.id), file);
    store.data.jobs.push(job);
    await store.write();
    await Promise.all([...evicted].map((id) => rm(this.file(id), { force: true })));
    const queued = structuredClone(job);
    this.publish(queued);
    this.chain = this.chain.then(() => this.run(job.id));
    return queued;
  }

  async delete(id: string): Promise<void> {
    const job = this.get(id);
    if (job.state === 'running') this.dropped.add(id);
    const store = this.jobsFile();
    store.data.jobs = store.data.jobs.filter((j) => j.id !== id);
    await store.write();
    if (job.state === 'running') await this.worker.cancel();
    await Promise.all([rm(this.file(id), { force: true }), rm(this.uploadFile(id), { force: true })]);
  }

  /** The result as a file in the format asked for. */
  async download(id: string, format: MeshFormat): Promise<Uint8Array> {
    const job = this.get(id);
    // Written on the worker thread: a 3MF of a large model takes a second.
    return this.worker.convert(await this.storedResult(id), format, `${job.generator}-${id.slice(0, 8)}`);
  }

  /** The result mesh of a finished job (scenes place it). */
  async mesh(id: string): Promise<SolidMesh> {
    return decodeMesh(await this.storedResult(id));
  }

  private async storedResult(id: string): Promise<Buffer> {
    const job = this.get(id);
    if (job.state !== 'done') throw new AppError(ErrorCode.conflict, 409, `job ${id} is ${job.state}, not done`);
    return readFile(this.file(id));
  }

  private publish(job: ModelJob): void {
    this.options.bus.emit('model.job', structuredClone(job));
  }

  private async update(id: string, change: Partial<ModelJob>): Promise<ModelJob | null> {
    const job = this.store?.data.jobs.find((j) => j.id === id);
    if (!job) return null;
    Object.assign(job, change);
    await this.jobsFile().write();
    this.publish(job);
    return job;
  }

  private async run(id: string): Promise<void> {
    if (this.stopping) return;
    const job = await this.update(id, { state: 'running', started_at: new Date().toISOString(), progress: 0.05 });
    // Gone, or deleted while its start was being written: nothing to build.
    if (!job || this.dropped.delete(id)) return;
    try {
      if (job.generator !== REMOTE_TEXT_ID && !generatorById(job.generator)) throw new Error(`the generator ${job.generator} is no longer offered`);
      const provider = job.generator === REMOTE_TEXT_ID ? this.provider() : null;
      if (job.generator === REMOTE_TEXT_ID && !provider) throw new Error('the text-to-3D provider is no longer configured');
      let reported = 0;
      const file = generatorById(job.generator)?.upload ? await readFile(this.uploadFile(id)) : undefined;
      const built = await this.worker.run({ generator: job.generator, params: job.params, provider, file }, (fraction) => {
        // Whole tenths only, so a busy generator does not flood the WebSocket.
        if (fraction - reported < 0.1) return;
        reported = fraction;
        this.publish({ ...job, progress: Math.min(0.95, fraction) });
      });
      // The upload is needed no more: gone before the job says it is done.
      if (file) await rm(this.uploadFile(id), { force: true });
      if (this.dropped.delete(id)) return;
      await writeFileAtomic(this.file(id), Buffer.from(built.stored.buffer, built.stored.byteOffset, built.stored.byteLength));
      const done = await this.update(id, {
        state: 'done',
        progress: 1,
        finished_at: new Date().toISOString(),
        result: { ...built.facts, notes: built.notes },
      });
      // Deleted while its result was being written: the file goes too.
      if (!done) await rm(this.file(id), { force: true });
    } catch (err) {
      await rm(this.uploadFile(id), { force: true });
      if (this.dropped.delete(id)) return;
      const message = this.stopping ? 'the dashboard stopped during the build' : (err as Error).message;
      this.options.log.warn('model generation failed', { job: id, generator: job.generator, error: message });
      await this.update(id, { state: 'failed', finished_at: new Date().toISOString(), error: message });
    }
  }
}
