/**
 * Runs one task in a process of its own (`task-process.js`) and turns its messages into a promise.
 * A process rather than a worker thread, for memory: what a task allocated goes back to the
 * system when its process ends, whereas a thread's freed memory stays in the allocator's heaps of
 * the process it ran in (a Menger sponge slice in a thread left the service 65 MB larger for good,
 * a zip bomb 1 GB; README "Memory"), and an out-of-memory kill takes the task, not its caller.
 * A cancel asks the process to stop (the engine checks its AbortSignal between layers) and kills
 * it if it has not stopped within a few seconds; the task then fails with the reason given.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { BBox3 } from '../engine/mesh/types.js';
import type { BoundsTask, ParentMessage, PreviewTask, SlicedSummary, SliceTask, WorkerMessage, WorkerTask } from './task-protocol.js';

const TASK_PROCESS_PATH = fileURLToPath(new URL('./task-process.js', import.meta.url));
/** A process that ignores a cancel this long is killed. */
const KILL_AFTER_MS = 5000;

/**
 * The runtime of a one-shot slicing process, as the command line's first line sets it (measured
 * there, engine README): a fixed malloc threshold and one arena, so that freed buffers are reused
 * or unmapped instead of kept, a 2 MB young generation, less optimising-compiler work, and no
 * extra CA certificates to parse.
 */
export const TASK_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '1' };
/**
 * Left out of a task's environment: Node parses the certificate file NODE_EXTRA_CA_CERTS names as
 * it starts (45-50 ms of CPU for a distribution's bundle), and a slice opens no TLS connection.
 */
export const TASK_ENV_UNSET: readonly string[] = ['NODE_EXTRA_CA_CERTS'];

function taskEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...TASK_ENV };
  for (const name of TASK_ENV_UNSET) delete env[name];
  return env;
}
export const TASK_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=2',
  '--interrupt-budget=135168',
  '--max-inlined-bytecode-size-cumulative=460',
];

export type TaskEvent = Extract<WorkerMessage, { type: 'progress' | 'layer' }>;

export interface TaskHandle<T> {
  readonly result: Promise<T>;
  /** The task process's peak resident memory in bytes, once it has reported it (just before it ends). */
  readonly peakRssBytes: number | null;
  /** Stops the task; it rejects with `reason` unless it finished first. */
  cancel(reason: AppError): void;
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function exitError(code: number | null, signal: NodeJS.Signals | null): AppError {
  const how =
    signal === 'SIGKILL' ? 'was killed (SIGKILL: out of memory?)' : `stopped unexpectedly (${signal === null ? `exit code ${code}` : signal})`;
  return new AppError(ErrorCode.sliceFailed, 500, `the slicing process ${how}`);
}

function start<T>(task: WorkerTask, pick: (m: WorkerMessage) => T | undefined, onEvent?: (e: TaskEvent) => void): TaskHandle<T> {
  const child = fork(TASK_PROCESS_PATH, [], {
    execArgv: [...TASK_NODE_FLAGS],
    env: taskEnv(),
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const tell = (message: ParentMessage): void => {
    if (child.connected) child.send(message);
  };
  let cancelReason: AppError | null = null;
  let settled = false;
  let peakRssBytes: number | null = null;
  let killTimer: NodeJS.Timeout | undefined;

  const result = new Promise<T>((resolve, reject) => {
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      if (running(child)) child.kill('SIGKILL');
      finish();
    };
    const fail = (err: AppError): void => settle(() => reject(cancelReason ?? err));
    child.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress' || m.type === 'layer') {
        if (cancelReason === null) onEvent?.(m);
        return;
      }
      if (m.type === 'usage') {
        peakRssBytes = m.peakRssBytes;
        return;
      }
      if (m.type === 'failed') {
        fail(new AppError(m.code, m.status, m.message));
        return;
      }
      const value = pick(m);
      if (value !== undefined) settle(() => resolve(value));
    });
    child.on('error', (err) => fail(new AppError(ErrorCode.sliceFailed, 500, `the slicing process failed: ${err.message}`)));
    // 'close', not 'exit': messages the process sent just before it ended may still be on their way at 'exit'.
    child.on('close', (code, signal) => fail(exitError(code, signal)));
  });
  tell(task);

  return {
    result,
    get peakRssBytes() {
      return peakRssBytes;
    },
    cancel(reason: AppError): void {
      if (settled || cancelReason !== null) return;
      cancelReason = reason;
      tell({ type: 'cancel' });
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
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
