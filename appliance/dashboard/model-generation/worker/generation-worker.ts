/**
 * One long-lived worker thread for the builds (jobs run one at a time, so one thread is enough and
 * leaves the other core to the dashboard and the printers). It is started with the first build and
 * kept for the next ones; a crash (an uncaught error, the heap limit) fails the build running on it
 * and drops it, so the next build gets a fresh thread; `cancel` ends the running build by ending
 * the thread, and `close` ends it for good.
 */
import { Worker } from 'node:worker_threads';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { BuildRequest, BuildResult, FromWorker, ToWorker } from './protocol.js';

export interface GenerationWorkerOptions {
  /** The thread's module; the generation entry unless a test swaps it. */
  entry?: URL;
  /** The thread's JS heap limit (MB): past it the thread dies and its build fails, the dashboard lives on. */
  maxHeapMb?: number;
}

/** Enough for the parametric generators and for reading a provider's 50 MB model file. */
export const DEFAULT_WORKER_HEAP_MB = 384;

interface Running {
  id: number;
  worker: Worker;
  resolve: (result: BuildResult) => void;
  reject: (err: Error) => void;
  progress: (fraction: number) => void;
}

export class GenerationWorker {
  private worker: Worker | null = null;
  private running: Running | null = null;
  private nextId = 1;
  private closed = false;
  /** Threads started so far (a crash or a cancel makes the next build start one more). */
  started = 0;

  constructor(private readonly options: GenerationWorkerOptions = {}) {}

  /** The thread now alive, if any (its id, for the system info). */
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  private spawn(): Worker {
    const worker = new Worker(this.options.entry ?? new URL('./entry.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? DEFAULT_WORKER_HEAP_MB },
    });
    this.started++;
    worker.on('message', (message: FromWorker) => this.receive(worker, message));
    worker.on('error', (err) => this.lost(worker, `the generation worker crashed: ${err.message}`));
    worker.on('exit', (code) => this.lost(worker, `the generation worker stopped unexpectedly (exit code ${code})`));
    // An idle thread does not keep the process alive (a test or a command that ends, ends).
    worker.unref();
    return worker;
  }

  /** Runs one build; only one at a time (the jobs queue them). */
  run(request: BuildRequest, progress: (fraction: number) => void): Promise<BuildResult> {
    if (this.closed) return Promise.reject(new AppError(ErrorCode.unavailable, 503, 'model generation is stopping'));
    if (this.running) return Promise.reject(new Error('the generation worker is busy'));
    this.worker ??= this.spawn();
    const worker = this.worker;
    const id = this.nextId++;
    return new Promise<BuildResult>((resolve, reject) => {
      this.running = { id, worker, resolve, reject, progress };
      worker.ref();
      worker.postMessage({ id, ...request } satisfies ToWorker);
    });
  }

  private settle(): Running | null {
    const running = this.running;
    this.running = null;
    running?.worker.unref();
    return running;
  }

  private receive(worker: Worker, message: FromWorker): void {
    const running = this.running;
    if (!running || running.worker !== worker || running.id !== message.id) return;
    if (message.kind === 'progress') {
      running.progress(message.fraction);
      return;
    }
    this.settle();
    if (message.kind === 'done') running.resolve({ stored: message.stored, facts: message.facts, notes: message.notes });
    else running.reject(new Error(message.message));
  }

  /** The thread ended or failed: its build fails, and the next build starts a fresh thread. */
  private lost(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
    if (this.running?.worker === worker) this.settle()?.reject(new Error(reason));
  }

  /** Ends the running build (its promise rejects with ERR_CANCELLED) by ending its thread. */
  async cancel(): Promise<void> {
    const worker = this.worker;
    const running = this.settle();
    if (!worker) return;
    this.worker = null;
    running?.reject(new AppError(ErrorCode.cancelled, 499, 'the build was cancelled'));
    await worker.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.cancel();
  }
}
