/**
 * Runs one task in its own worker thread and turns the thread's messages into a promise. A
 * cancel asks the thread to stop (the engine checks its AbortSignal between layers) and kills it
 * if it has not stopped within a few seconds; the task then fails with the reason given.
 */
import { Worker } from 'node:worker_threads';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { BBox3 } from '../engine/mesh/types.js';
import type { BoundsTask, PreviewTask, SlicedSummary, SliceTask, WorkerMessage, WorkerTask } from './worker-protocol.js';

const WORKER_URL = new URL('./slice-worker.js', import.meta.url);
/** A thread that ignores a cancel this long is terminated. */
const KILL_AFTER_MS = 5000;

export type TaskEvent = Extract<WorkerMessage, { type: 'progress' | 'layer' }>;

export interface TaskHandle<T> {
  readonly result: Promise<T>;
  /** Stops the task; it rejects with `reason` unless it finished first. */
  cancel(reason: AppError): void;
}

function start<T>(task: WorkerTask, pick: (m: WorkerMessage) => T | undefined, onEvent?: (e: TaskEvent) => void): TaskHandle<T> {
  const worker = new Worker(WORKER_URL, { workerData: task });
  let cancelReason: AppError | null = null;
  let settled = false;
  let killTimer: NodeJS.Timeout | undefined;

  const result = new Promise<T>((resolve, reject) => {
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      void worker.terminate();
      finish();
    };
    const fail = (err: AppError): void => settle(() => reject(cancelReason ?? err));
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress' || m.type === 'layer') {
        if (cancelReason === null) onEvent?.(m);
        return;
      }
      if (m.type === 'failed') {
        fail(new AppError(m.code, m.status, m.message));
        return;
      }
      const value = pick(m);
      if (value !== undefined) settle(() => resolve(value));
    });
    worker.on('error', (err) => fail(new AppError(ErrorCode.sliceFailed, 500, `the slicing thread failed: ${err.message}`)));
    worker.on('exit', (code) => fail(new AppError(ErrorCode.sliceFailed, 500, `the slicing thread stopped unexpectedly (exit code ${code})`)));
  });

  return {
    result,
    cancel(reason: AppError): void {
      if (settled || cancelReason !== null) return;
      cancelReason = reason;
      worker.postMessage({ type: 'cancel' });
      killTimer = setTimeout(() => void worker.terminate(), KILL_AFTER_MS);
    },
  };
}

export function runSlice(task: SliceTask, onEvent: (e: TaskEvent) => void): TaskHandle<SlicedSummary> {
  return start(task, (m) => (m.type === 'sliced' ? m.summary : undefined), onEvent);
}

export function runPreview(task: PreviewTask): TaskHandle<Uint8Array> {
  return start(task, (m) => (m.type === 'rendered' ? m.png : undefined));
}

export function runBounds(task: BoundsTask): TaskHandle<BBox3> {
  return start(task, (m) => (m.type === 'measured' ? m.bounds : undefined));
}
