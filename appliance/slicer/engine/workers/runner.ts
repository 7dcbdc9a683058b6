/**
 * Where a slice's geometry tasks run: on worker threads, on this thread, or both. A small job runs
 * here alone; with one worker (a mid-sized job, or a limit that leaves a core to other services)
 * this thread takes every other share besides writing the G-code; with more, it only writes.
 */
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { AppError, ErrorCode } from '../../../common/errors.js';
import { createTasks, type TaskArgs, type TaskName, type TaskResult } from './tasks.js';
import { WorkerPool } from './pool.js';

/**
 * How long (ms) this thread works between turns of the event loop, which let a cancel, progress
 * events, file writes and the service's requests through. A turn costs little, but turns after
 * every chunk of small layers (the rigid3d platform: 107) added 5 % to the slice.
 */
const EVENT_TURN_MS = 10;

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: the first use of the `performance`
 * global loads Node's performance hooks, 2-3 ms of a command-line start.
 */
function nowMs(): number {
  return process.uptime() * 1000;
}

export class TaskRunner {
  private readonly local = createTasks();
  private lastTurn = nowMs();

  constructor(private readonly pool: WorkerPool | null) {}

  /** Worker threads; 0 when everything runs on this thread. */
  get threads(): number {
    return this.pool?.size ?? 0;
  }

  /** Places the work is shared over: the workers, and this thread when it takes a share. */
  get lanes(): number {
    return this.threads <= 1 ? this.threads + 1 : this.threads;
  }

  /**
   * Whether share `k` of a job is this thread's: all of it without workers; with one worker, every
   * other share; with more, none (this thread is kept for writing the G-code).
   */
  isLocal(k: number): boolean {
    if (this.threads === 0) return true;
    return this.threads === 1 && k % 2 === 1;
  }

  /** Runs a task on a worker (or here, after letting pending events through, when there is none). */
  async run<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<TaskResult<N>> {
    if (this.pool) return this.pool.run(name, args);
    await this.letEventsThrough();
    return this.runHere(name, args);
  }

  /**
   * Runs a task on worker `lane`, 0 to threads - 1: the layer stream keeps consecutive chunks on
   * one worker, whose caches then hold what the chunk below left (pipeline/chunk-plan.ts).
   */
  runOn<N extends TaskName>(lane: number, name: N, args: TaskArgs<N>): Promise<TaskResult<N>> {
    if (!this.pool) return Promise.reject(new AppError(ErrorCode.internal, 500, 'no slicing workers to run on'));
    return this.pool.runOn(lane, name, args);
  }

  /** Gives the event loop a turn when this thread has worked for EVENT_TURN_MS since the last one. */
  async letEventsThrough(): Promise<void> {
    if (nowMs() - this.lastTurn < EVENT_TURN_MS) return;
    await yieldToEvents();
    this.lastTurn = nowMs();
  }

  /** Runs a task on this thread, now. */
  runHere<N extends TaskName>(name: N, args: TaskArgs<N>): TaskResult<N> {
    return (this.local[name] as (a: TaskArgs<N>) => TaskResult<N>)(args);
  }

  /** Runs the task once on every worker and here (the job setup; shared memory in args is not copied). */
  async broadcast<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<void> {
    this.runHere(name, args);
    if (this.pool) await this.pool.broadcast(name, args);
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

export function createRunner(workers: number): TaskRunner {
  return new TaskRunner(workers > 0 ? new WorkerPool(workers) : null);
}
