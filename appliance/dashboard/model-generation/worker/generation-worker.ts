/**
 * One long-lived worker thread for the builds (jobs run one at a time, so one thread is enough and
 * leaves the other core to the dashboard and the printers) and for writing downloads. It is
 * started with the first request and kept for the next ones; a crash (an uncaught error, the heap
 * limit) fails what was running on it and drops it, so the next request gets a fresh thread;
 * `cancel` ends the running build by ending the thread (conversions in flight are sent again to a
 * fresh one), and `close` ends it for good.
 */
import { Worker } from 'node:worker_threads';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { MeshFormat } from '../geometry/mesh-files.js';
import type { BuildRequest, BuildResult, FromWorker, ToWorker } from './protocol.js';

export interface GenerationWorkerOptions {
  /** The thread's JS heap limit (MB): past it the thread dies and its build fails, the dashboard lives on. */
  maxHeapMb?: number;
}

/** Enough for the parametric generators and for reading a provider's 50 MB model file. */
export const DEFAULT_WORKER_HEAP_MB = 384;

interface Pending {
  message: ToWorker;
  resolve: (value: never) => void;
  reject: (err: Error) => void;
  progress?: (fraction: number) => void;
}

export class GenerationWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  /** The id of the build in flight, if any. */
  private building: number | null = null;
  private nextId = 1;
  private closed = false;
  /** Threads started so far (a crash or a cancel makes the next request start one more). */
  started = 0;

  constructor(private readonly options: GenerationWorkerOptions = {}) {}

  /** The thread now alive, if any. */
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./entry.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? DEFAULT_WORKER_HEAP_MB },
    });
    this.started++;
    worker.on('message', (message: FromWorker) => this.receive(worker, message));
    worker.on('error', (err) => this.lost(worker, `the generation worker crashed: ${err.message}`));
    worker.on('exit', (code) => this.lost(worker, `the generation worker stopped unexpectedly (exit code ${code})`));
    // An idle thread does not keep the process alive (a test or a command that ends, ends).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private send<T>(message: ToWorker, progress?: (fraction: number) => void): Promise<T> {
    if (this.closed) return Promise.reject(new AppError(ErrorCode.unavailable, 503, 'model generation is stopping'));
    return new Promise<T>((resolve, reject) => {
      this.pending.set(message.id, { message, resolve: resolve as (value: never) => void, reject, progress });
      this.post(message);
    });
  }

  private post(message: ToWorker): void {
    const worker = this.thread();
    worker.ref();
    // The stored mesh is copied, not moved: the caller may still hold it.
    worker.postMessage(message);
  }

  /** Runs one build; only one at a time (the jobs queue them). */
  run(request: BuildRequest, progress: (fraction: number) => void): Promise<BuildResult> {
    if (this.building !== null) return Promise.reject(new Error('the generation worker is already building'));
    const id = this.nextId++;
    const result = this.send<BuildResult>({ id, kind: 'build', ...request }, progress);
    if (this.pending.has(id)) this.building = id;
    return result;
  }

  /** A stored mesh written as the file of a download. */
  convert(stored: Uint8Array, format: MeshFormat, name: string): Promise<Uint8Array> {
    return this.send<Uint8Array>({ id: this.nextId++, kind: 'convert', stored, format, name });
  }

  private settle(id: number): Pending | null {
    const pending = this.pending.get(id) ?? null;
    this.pending.delete(id);
    if (this.building === id) this.building = null;
    if (this.pending.size === 0) this.worker?.unref();
    return pending;
  }

  private receive(worker: Worker, message: FromWorker): void {
    if (worker !== this.worker) return;
    if (message.kind === 'progress') {
      this.pending.get(message.id)?.progress?.(message.fraction);
      return;
    }
    const pending = this.settle(message.id);
    if (!pending) return;
    if (message.kind === 'done') pending.resolve({ stored: message.stored, facts: message.facts, notes: message.notes } as never);
    else if (message.kind === 'converted') pending.resolve(message.file as never);
    else pending.reject(new Error(message.message));
  }

  /** The thread ended or failed: what ran on it fails, and the next request starts a fresh thread. */
  private lost(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new Error(reason));
  }

  /** Ends the running build (its promise rejects with ERR_CANCELLED) by ending its thread. */
  async cancel(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const build = this.building === null ? null : this.settle(this.building);
    build?.reject(new AppError(ErrorCode.cancelled, 499, 'the build was cancelled'));
    await worker.terminate();
    if (this.closed) {
      for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new AppError(ErrorCode.unavailable, 503, 'model generation is stopping'));
    } else {
      for (const { message } of this.pending.values()) this.post(message);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.cancel();
  }
}
