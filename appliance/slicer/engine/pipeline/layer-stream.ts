/**
 * The toolpath stage: layers built in parallel chunks and handed to the G-code writer strictly in
 * order, with a bounded number of chunks in flight, so memory holds a few layers, not the print.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { LayerSpec } from '../layers/zlist.js';
import type { ObjectOutlines } from '../layers/slice-outlines.js';
import type { SupportLayer } from '../regions/support.js';
import { decodeLayer } from '../toolpath/codec.js';
import type { LayerPaths } from '../toolpath/types.js';
import { F64Writer } from '../workers/f64-stream.js';
import type { LayersArgs } from '../workers/tasks.js';
import type { TaskRunner } from '../workers/runner.js';
import { ChunkPlan, chunkStarts } from './chunk-plan.js';

export interface LayerStreamInput {
  specs: LayerSpec[];
  objects: ObjectOutlines[];
  filaments: number[];
  support: SupportLayer[] | null;
  /**
   * Neighbour layers each layer needs: for its top and bottom shells, and below, those of the
   * layers an internal bridge on it would rest on.
   */
  above: number;
  below: number;
}

function encode(list: SupportLayer['base']): Float64Array {
  const w = new F64Writer();
  w.exPolygons(list);
  return w.finish();
}

function chunkArgs(input: LayerStreamInput, first: number, last: number): LayersArgs {
  const objects = input.objects
    .map((o, object) => {
      const base = Math.max(0, first - input.below);
      const end = Math.min(o.layers.length, last + input.above);
      return { object, filament: input.filaments[object] ?? 0, base, slices: o.layers.slice(base, end), top: o.top };
    })
    .filter((o) => o.top >= first);
  const support = input.support ? input.support.slice(first, last).map((s) => ({ base: encode(s.base), iface: encode(s.iface) })) : null;
  return { first, last, objects, support };
}

/**
 * Most layers a chunk holds. This thread keeps its caches from chunk to chunk, and gives the event
 * loop a turn between its chunks. A worker starting a chunk that is not the one above its last
 * builds again what the layers under it would have left in its caches (walls and fills of
 * repeating islands, the fill regions an internal bridge rests on); longer chunks rebuild less
 * (the Menger sponge on two workers: 5.4 % longer with internal bridges at 16 layers a chunk,
 * 2.7 % at 24), and so do blocks of chunks on one worker (BLOCK_CHUNKS).
 */
const LOCAL_CHUNK = 8;
const WORKER_CHUNK = 24;
/**
 * Chunks a worker builds one after another when there are two workers or more (chunk-plan.ts):
 * the Menger sponge classified 2 layers again at each of 17 chunk starts on two workers, and at
 * blocks of 4 chunks does so at 4.
 */
const BLOCK_CHUNKS = 4;

/** Calls `consume` for every layer in order. */
export async function streamLayers(input: LayerStreamInput, runner: TaskRunner, consume: (layer: LayerPaths) => void | Promise<void>): Promise<void> {
  const total = input.specs.length;
  const bounds = chunkStarts(total, Math.min(runner.threads > 0 ? WORKER_CHUNK : LOCAL_CHUNK, Math.ceil(total / (runner.lanes * 6))));
  const chunks = bounds.length - 1;
  const argsOf = (k: number) => chunkArgs(input, bounds[k], bounds[k + 1]);
  const write = async (buffers: Float64Array[]) => {
    for (const buf of buffers) await consume(decodeLayer(buf));
  };
  if (runner.threads >= 2) await fromWorkers(chunks, runner, argsOf, write);
  else await sharedWithThisThread(chunks, runner, argsOf, write);
}

/**
 * With one worker or none: this thread builds every other chunk (or all of them) when the writer
 * gets there, between writing the layers before and after it; the worker runs ahead by a few.
 */
async function sharedWithThisThread(
  chunks: number,
  runner: TaskRunner,
  argsOf: (k: number) => LayersArgs,
  write: (buffers: Float64Array[]) => Promise<void>,
): Promise<void> {
  const window = runner.lanes * 4;
  const inflight = new Map<number, Promise<Float64Array[]>>();
  const launch = (k: number) => {
    if (k >= chunks || runner.isLocal(k)) return;
    const p = runner.run('layers', argsOf(k));
    // Rejections surface when the chunk is awaited in order; keep them from being reported early.
    p.catch(() => undefined);
    inflight.set(k, p);
  };
  for (let k = 0; k < window; k++) launch(k);
  for (let k = 0; k < chunks; k++) {
    let buffers: Float64Array[];
    if (runner.isLocal(k)) {
      await runner.letEventsThrough();
      buffers = runner.runHere('layers', argsOf(k));
    } else {
      const pending = inflight.get(k);
      if (!pending) throw new AppError(ErrorCode.internal, 500, `layer chunk ${k} was never sent to a worker`);
      buffers = await pending;
      inflight.delete(k);
    }
    launch(k + window);
    await write(buffers);
  }
}

/** A promise settled from outside. */
function settleLater<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (err: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Rejections surface when the chunk is awaited in order; keep them from being reported early.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * With two workers or more, which build every chunk in blocks (chunk-plan.ts) while this thread
 * writes them in order. At most `window` chunks past the one being written are started.
 */
async function fromWorkers(
  chunks: number,
  runner: TaskRunner,
  argsOf: (k: number) => LayersArgs,
  write: (buffers: Float64Array[]) => Promise<void>,
): Promise<void> {
  const plan = new ChunkPlan(chunks, runner.threads, BLOCK_CHUNKS);
  // A block per worker in flight, as many chunks as alternating chunks had: a worker that ends
  // its block ahead of the one below still starts the next block's first chunks.
  const window = runner.threads * BLOCK_CHUNKS;
  // A chunk's entry is dropped once it is written: its toolpaths are not kept to the end.
  const results: (ReturnType<typeof settleLater<Float64Array[]>> | undefined)[] = Array.from({ length: chunks }, () => settleLater());
  let received = 0;
  let windowMoved = settleLater<void>();
  let failed = false;
  const lane = async (l: number) => {
    while (!plan.done && !failed) {
      const k = plan.take(l, received + window);
      if (k === null) {
        await windowMoved.promise;
        continue;
      }
      try {
        results[k]?.resolve(await runner.runOn(l, 'layers', argsOf(k)));
      } catch (err) {
        // The chunks not built yet never will be: the writer gets the error at the next it awaits.
        failed = true;
        for (const r of results) r?.reject(err);
      }
    }
  };
  for (let l = 0; l < runner.threads; l++) void lane(l);
  for (let k = 0; k < chunks; k++) {
    const result = results[k];
    if (!result) throw new AppError(ErrorCode.internal, 500, `layer chunk ${k} was written twice`);
    const buffers = await result.promise;
    results[k] = undefined;
    received = k + 1;
    windowMoved.resolve();
    windowMoved = settleLater<void>();
    await write(buffers);
  }
}
