/**
 * A small pool of worker threads running the engine's geometry tasks. Each worker loads the
 * geometry code once and receives typed arrays; results come back as transferable buffers.
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { TaskName, TaskArgs, TaskResult } from './tasks.js';

/*
 * Node's os and worker_threads are required when first needed, not imported: most slices start no
 * worker, and worker_threads with the streams and performance hooks it brings took 2-3 ms of every
 * command-line start. (`process.getBuiltinModule` would do, but only from Node 20.16.)
 */
const require = createRequire(import.meta.url);

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Job {
  id: number;
  name: TaskName;
  args: unknown;
  transfer: ArrayBuffer[];
  pending: Pending;
  /** Set for a broadcast: only this worker may take the job. */
  target?: Worker;
}

/**
 * One worker per core: this thread then only writes the G-code (see runner.ts), which takes a
 * small share of a big job's time. With one worker on two cores this thread shared the layer work,
 * and its small young generation (the command line runs with 2 MB) made that share slow: the Menger
 * sponge took 11-12 s with one worker, 9.3-11 s with two (interleaved runs, 185 MB instead of
 * 150 MB; PrusaSlicer takes 275 MB). None on a single core, where threads only add overhead.
 */
export function defaultWorkerCount(): number {
  const { availableParallelism } = require('node:os') as typeof import('node:os');
  const cores = availableParallelism();
  return cores >= 2 ? cores : 0;
}

/**
 * A worker's young generation (MB). V8 lets it grow to 48 MB under the allocation rate of the
 * layer work; capped, scavenges run more often but few objects survive them (the Menger sponge
 * with one worker: 200 MB instead of 213 MB, the same CPU time).
 */
const WORKER_YOUNG_GENERATION_MB = 16;

/** What worker.ts posts back for a job. */
type WorkerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: { code: string; status: number; message: string } };

export class WorkerPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private nextId = 1;
  private closed = false;
  private failure: Error | null = null;

  constructor(size: number) {
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    for (let k = 0; k < size; k++) {
      const worker = new Worker(new URL('./worker.js', import.meta.url), {
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      worker.on('message', (msg: WorkerReply) => {
        const job = this.running.get(worker);
        if (!job || job.id !== msg.id) return;
        this.running.delete(worker);
        if (msg.ok) job.pending.resolve(msg.result);
        else job.pending.reject(new AppError(msg.error.code, msg.error.status, msg.error.message));
        this.release(worker);
      });
      worker.on('error', (err) => this.fail(worker, err));
      worker.on('exit', (code) => {
        if (!this.closed) this.fail(worker, new Error(`slicing worker exited with code ${code}`));
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  run<N extends TaskName>(name: N, args: TaskArgs<N>, transfer: ArrayBuffer[] = []): Promise<TaskResult<N>> {
    return this.enqueue(name, args, transfer);
  }

  /** Runs the task on worker `lane` (0 to size - 1), after what that worker already has queued. */
  runOn<N extends TaskName>(lane: number, name: N, args: TaskArgs<N>): Promise<TaskResult<N>> {
    const worker = this.workers[lane];
    if (!worker) return Promise.reject(new AppError(ErrorCode.internal, 500, `no slicing worker ${lane} (the pool has ${this.size})`));
    return this.enqueue(name, args, [], worker);
  }

  /** Runs the task once on every worker (e.g. the job setup); shared memory in args is not copied. */
  async broadcast<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<void> {
    await Promise.all(this.workers.map((w) => this.enqueue(name, args, [], w)));
  }

  private enqueue<N extends TaskName>(name: N, args: TaskArgs<N>, transfer: ArrayBuffer[], target?: Worker): Promise<TaskResult<N>> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new AppError(ErrorCode.cancelled, 499, 'worker pool closed'));
    return new Promise<TaskResult<N>>((resolve, reject) => {
      const job: Job = { id: this.nextId++, name, args, transfer, target, pending: { resolve: resolve as (v: unknown) => void, reject } };
      this.queue.push(job);
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (let w = this.idle.length - 1; w >= 0 && this.queue.length; w--) {
      const worker = this.idle[w];
      const at = this.queue.findIndex((j) => !j.target || j.target === worker);
      if (at < 0) continue;
      const [job] = this.queue.splice(at, 1);
      this.idle.splice(w, 1);
      this.running.set(worker, job);
      worker.postMessage({ id: job.id, name: job.name, args: job.args }, job.transfer);
    }
  }

  private release(worker: Worker): void {
    this.idle.push(worker);
    this.dispatch();
  }

  private fail(worker: Worker, err: Error): void {
    if (this.closed) return;
    this.failure = new AppError(ErrorCode.sliceFailed, 500, `slicing worker failed: ${err.message}`);
    const job = this.running.get(worker);
    if (job) job.pending.reject(this.failure);
    for (const q of this.queue.splice(0)) q.pending.reject(this.failure);
    void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const q of this.queue.splice(0)) q.pending.reject(new AppError(ErrorCode.cancelled, 499, 'slice cancelled'));
    for (const job of this.running.values()) job.pending.reject(new AppError(ErrorCode.cancelled, 499, 'slice cancelled'));
    this.running.clear();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
