/**
 * Entry point of the process that runs one task for the slicer service or the dashboard
 * (`task-runner.ts` starts it): a slice (the engine's G-code writer runs on its calling thread,
 * so it must not be the caller's), a model preview, or a
 * model's bounding box (for the dashboard's desktop-slicer bridge: loading a large model is work
 * no event loop should do). It receives its task as the first message on its IPC channel, reports
 * progress, obeys a cancel message, and ends with its peak memory and exactly one final message.
 * A lost channel (its caller is gone) stops it at once: nobody is left to take the result.
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { asStorageError } from '../../common/disk-space.js';
import { toAppError, ErrorCode } from '../../common/errors.js';
import { lowerOtherThreads } from '../../common/thread-priority.js';
import { meshBounds, unionBBox3 } from '../engine/mesh/bounds.js';
import { loadModel } from '../engine/mesh/load.js';
import { renderMeshPng } from '../engine/preview/mesh-render.js';
import { sliceModel } from '../engine/pipeline/slice.js';
import type { BoundsTask, ParentMessage, PreviewTask, SliceTask, WorkerMessage, WorkerTask } from './task-protocol.js';

/**
 * Progress and layer counters are sent at most this often (stage changes and the last layer
 * always): the engine reports every 0.1 % and every layer, which would flood an event stream.
 */
const EVENT_INTERVAL_MS = 100;
/** Nice value of the slicing process: well below the service's HTTP thread, which must answer in milliseconds. */
const WORKER_NICE = 19;
/** Job files are for the service's user only. */
const FILE_MODE = 0o600;
/** Exit status when the caller went away before the task ended. */
const ORPHANED = 3;

function requireChannel(): (message: WorkerMessage, done?: () => void) => void {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error('task-process.js runs only as a child process started by task-runner.js, with an IPC channel');
  return (message, done) => send(message, undefined, undefined, done ? () => done() : undefined);
}

const send = requireChannel();

function post(message: WorkerMessage): void {
  send(message);
}

/** The last messages, then the end of the process once they are on their way. */
function finish(message: WorkerMessage): void {
  send({ type: 'usage', peakRssBytes: process.resourceUsage().maxRSS * 1024 });
  send(message, () => process.exit(0));
}

async function slice(task: SliceTask, signal: AbortSignal): Promise<WorkerMessage> {
  let lastLayerAt = 0;
  let lastProgressAt = 0;
  let lastStage = '';
  const result = await sliceModel({
    model: () => readFile(task.modelPath),
    fileName: task.fileName,
    config: task.config,
    outputPath: task.outputPath,
    metadata: task.metadata,
    signal,
    maxOutputBytes: task.maxOutputBytes,
    minFreeBytes: task.minFreeBytes,
    inflateLimits: task.inflateLimits,
    heightChanges: task.heightChanges,
    ...(task.engineThreads === null ? {} : { workers: task.engineThreads }),
    onProgress: (e) => {
      const now = Date.now();
      if (e.stage === lastStage && e.pct < 100 && now - lastProgressAt < EVENT_INTERVAL_MS) return;
      lastStage = e.stage;
      lastProgressAt = now;
      post({ type: 'progress', stage: e.stage, pct: e.pct });
    },
    onLayer: (e) => {
      const now = Date.now();
      if (e.layer !== e.total_layers && now - lastLayerAt < EVENT_INTERVAL_MS) return;
      lastLayerAt = now;
      post({ type: 'layer', layer: e.layer, total_layers: e.total_layers });
    },
  });
  if (result.preview) await writeFile(task.previewPath, result.preview, { mode: FILE_MODE });
  return {
    type: 'sliced',
    summary: {
      outputPath: result.outputPath,
      format: result.format,
      sizeBytes: result.sizeBytes,
      layers: result.layers,
      estimatedTimeS: result.estimatedTimeS,
      filament: result.filament,
      warnings: result.warnings,
    },
  };
}

async function preview(task: PreviewTask): Promise<WorkerMessage> {
  const model = loadModel(await readFile(task.modelPath), task.fileName, task.inflateLimits);
  const png = renderMeshPng(
    model.objects.map((o) => o.mesh),
    { width: task.width, height: task.height, view: task.view },
  );
  return { type: 'rendered', png };
}

async function measure(task: BoundsTask): Promise<WorkerMessage> {
  const model = loadModel(await readFile(task.modelPath), task.fileName, task.inflateLimits);
  return { type: 'measured', bounds: model.objects.map((o) => meshBounds(o.mesh)).reduce(unionBBox3) };
}

async function run(task: WorkerTask, signal: AbortSignal): Promise<void> {
  let message: WorkerMessage;
  try {
    if (task.kind === 'slice') message = await slice(task, signal);
    else if (task.kind === 'preview') message = await preview(task);
    else message = await measure(task);
  } catch (err) {
    const e = toAppError(asStorageError(err), task.kind === 'slice' ? ErrorCode.sliceFailed : ErrorCode.internal);
    message = { type: 'failed', code: e.code, status: e.status, message: e.message };
  }
  finish(message);
}

// On Linux the nice value belongs to the thread, and threads inherit their creator's: this thread
// lowers itself before it starts the engine's geometry threads, and lowers V8's and libuv's
// helpers, which exist already. On a Pi with every core slicing, the service's HTTP thread still
// gets the CPU as soon as a request arrives.
try {
  os.setPriority(WORKER_NICE);
  lowerOtherThreads(WORKER_NICE);
} catch {
  // Not permitted on some systems; the task runs at the normal priority then.
}

const controller = new AbortController();
let started = false;
process.on('message', (message: ParentMessage) => {
  if ('kind' in message) {
    if (started) return;
    started = true;
    void run(message, controller.signal);
  } else if (message.type === 'cancel') controller.abort();
});
process.on('disconnect', () => process.exit(ORPHANED));
