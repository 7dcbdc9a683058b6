/**
 * Entry point of the thread that runs one task for the service: a slice (the engine's G-code
 * writer runs on its calling thread, so it must not be the service's), a model preview, or a
 * model's bounding box (for the dashboard's desktop-slicer bridge: loading a large model is work
 * no event loop should do). It reports progress, obeys a cancel message, and ends with exactly
 * one final message.
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { asStorageError } from '../../common/disk-space.js';
import { toAppError, ErrorCode } from '../../common/errors.js';
import { meshBounds, unionBBox3 } from '../engine/mesh/bounds.js';
import { loadModel } from '../engine/mesh/load.js';
import { renderMeshPng } from '../engine/preview/mesh-render.js';
import { sliceModel } from '../engine/slice.js';
import type { BoundsTask, ParentMessage, PreviewTask, SliceTask, WorkerMessage, WorkerTask } from './worker-protocol.js';

/**
 * Progress and layer counters are sent at most this often (stage changes and the last layer
 * always): the engine reports every 0.1 % and every layer, which would flood an event stream.
 */
const EVENT_INTERVAL_MS = 100;
/** Nice value of slicing threads: well below the HTTP thread, which must answer in milliseconds. */
const WORKER_NICE = 19;
/** Job files are for the service's user only. */
const FILE_MODE = 0o600;

function requirePort(): MessagePort {
  if (parentPort === null) throw new Error('slice-worker.js runs only as a worker thread');
  return parentPort;
}

const port = requirePort();

function post(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

async function slice(task: SliceTask, signal: AbortSignal): Promise<void> {
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
  post({
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
  });
}

async function preview(task: PreviewTask): Promise<void> {
  const model = loadModel(await readFile(task.modelPath), task.fileName);
  const png = renderMeshPng(model.objects.map((o) => o.mesh), { width: task.width, height: task.height, view: task.view });
  const copy = png.slice();
  post({ type: 'rendered', png: copy }, [copy.buffer]);
}

async function measure(task: BoundsTask): Promise<void> {
  const model = loadModel(await readFile(task.modelPath), task.fileName);
  const bounds = model.objects.map((o) => meshBounds(o.mesh)).reduce(unionBBox3);
  post({ type: 'measured', bounds });
}

// On Linux the nice value belongs to the thread (and threads inherit it), so this lowers this
// thread and the engine's geometry threads, not the service's event loop: on a Pi with every
// core slicing, the HTTP thread still gets the CPU as soon as a request arrives.
try {
  os.setPriority(WORKER_NICE);
} catch {
  // Not permitted on some systems; the slice runs at the normal priority then.
}

const controller = new AbortController();
port.on('message', (message: ParentMessage) => {
  if (message.type === 'cancel') controller.abort();
});

const task = workerData as WorkerTask;
try {
  if (task.kind === 'slice') await slice(task, controller.signal);
  else if (task.kind === 'preview') await preview(task);
  else await measure(task);
} catch (err) {
  const e = toAppError(asStorageError(err), task.kind === 'slice' ? ErrorCode.sliceFailed : ErrorCode.internal);
  post({ type: 'failed', code: e.code, status: e.status, message: e.message });
}
