/**
 * The engine's entry point: model bytes and a resolved config in, a G-code file (or a Bambu
 * `.gcode.3mf`) out. Stages: loading → repairing → slicing (outlines, supports) → gcode (toolpaths
 * built in worker threads, written in order by the G-code writer), then the file is finished with
 * its header, progress marks, thumbnails and footer.
 */
import { AppError, ErrorCode, toAppError } from '../../../common/errors.js';
import type { SliceRequest, SliceResult } from '../api.js';
import { loadModel } from '../mesh/load.js';
import { placeModel } from '../mesh/place.js';
import { repairMesh } from '../mesh/repair.js';
import type { Model, ModelObject, RepairReport } from '../mesh/types.js';
import { Progress } from './progress.js';
import { regionParams } from '../regions/params.js';
import { outlineOptions, planLayers, sliceOutlines } from '../layers/slice-outlines.js';
import { checkExcludedAreas, compensateShrinkage } from '../mesh/model-fit.js';
import { checkSupported } from './supported.js';
import { writeOutput } from './output.js';
import { planSupport, supportParams, type SupportLayer } from '../regions/support.js';
import type { RegionParams } from '../regions/params.js';
import type { LayerSpec } from '../layers/zlist.js';
import type { OutlineResult } from '../layers/slice-outlines.js';
import type { PrintConfig } from '../../profiles/schema.js';
import { unionExs } from '../geometry/clipper.js';
import { hashPath } from '../geometry/hash.js';
import { F64Reader } from '../workers/f64-stream.js';
import { createRunner } from '../workers/runner.js';
import type { SetupArgs } from '../workers/tasks.js';
import type { SliceEdges } from '../mesh/edges.js';
import { defaultWorkerCount } from '../workers/pool.js';

/*
 * Threads pay off only for enough geometry (measured on the corpus, two cores): building
 * toolpaths when the outlines hold over 60,000 points that are not repeats of the layer below
 * (identical layers are cheap: their walls and infill are reused); cutting the mesh only beyond
 * 50 M triangle-layers (triangles × layers). A worker first loads and warms up its own copy of the
 * engine, and holds its own heap: the bearing (35,000 points) took as long with a worker as
 * without, and 11 MB more; the Menger sponge (125,000) took 12 s with one, 16 s without. Cutting
 * is fast: the corpus's largest jobs (some 20 M) take 0.2-0.6 s on this thread and were longer on
 * workers, which then built the mesh's edge table first (they now get repair's edge ids; the
 * threshold was not measured again since).
 */
const SLICE_THRESHOLD = 50_000_000;
const TOOLPATH_THRESHOLD = 60_000;
/*
 * A second toolpath worker costs about 20 MB more at its peak (its thread, its own Clipper2
 * WebAssembly and its heap), which a mid-sized job notices: a CSG ball of 112,000 distinct points
 * in 1,100 rings (the bench's `--large` csg-ball-fn200) peaked at 137 MB with two workers, 114 MB
 * with one that this thread shares the layers with, against PrusaSlicer's 139 MB, and took less
 * CPU time with one (5.1 s against 5.5 s). The layer work grows with the outline points and with
 * the rings, each of which costs its walls' and surfaces' booleans whatever its size: some 300
 * points' worth (fitted to the CPU times of that ball, 4.3 s, and of the Menger sponge, 17 s, which
 * has 125,000 points in 5,800 rings). Two workers are started only past TWO_WORKERS_WORK of that
 * measure; the Menger sponge (1.9 M) keeps both, the ball (0.44 M) gets one.
 */
const RING_WORK = 300;
const TWO_WORKERS_WORK = 1_000_000;

function toShared<T extends Float32Array | Uint32Array>(a: T): T {
  const shared = new SharedArrayBuffer(a.byteLength);
  const out = (a instanceof Float32Array ? new Float32Array(shared) : new Uint32Array(shared)) as T;
  out.set(a);
  return out;
}

export async function sliceModel(req: SliceRequest): Promise<SliceResult> {
  const progress = new Progress(req.onProgress, req.onLayer, req.signal);
  const config = req.config;
  progress.enter('loading');
  const model = await readModel(req);
  progress.enter('repairing');
  const repair: RepairReport[] = [];
  // Per object, in order (shrinkage and placement move points, never triangles).
  const edges: SliceEdges[] = [];
  model.objects = model.objects.map((o): ModelObject => {
    const r = repairMesh(o.mesh);
    repair.push(r.report);
    edges.push(r.edges);
    return { ...o, mesh: r.mesh };
  });
  progress.checkCancelled();
  model.objects = compensateShrinkage(model.objects, config);
  const placed = placeModel(model, { printableArea: config.printable_area, printableHeight: config.printable_height });
  checkExcludedAreas(placed, config);
  const warnings = [...model.warnings, ...checkSupported(config)];
  // The placed copies are the ones sliced: the unplaced points go now, not at the end of the slice.
  model.objects = [];
  for (const o of placed.objects) {
    if (o.filament > config.filament_diameter.length) {
      throw new AppError(
        ErrorCode.badRequest,
        400,
        `object "${o.name}" asks for filament ${o.filament}, but the job has ${config.filament_diameter.length}`,
      );
    }
  }

  progress.enter('slicing');
  const specs = planLayers(placed.objects, config);
  if (specs.length === 0) throw new AppError(ErrorCode.badModel, 422, 'the model has no height to slice');
  const triangleLayers = placed.objects.reduce((a, o) => a + o.mesh.indices.length / 3, 0) * specs.length;
  // An explicit thread count is taken as given for both stages.
  const threadsFor = (work: number, threshold: number) => req.workers ?? (work < threshold ? 0 : defaultWorkerCount());
  const sliceThreads = threadsFor(triangleLayers, SLICE_THRESHOLD);
  let runner = createRunner(sliceThreads);
  const abort = () => void runner.close();
  req.signal?.addEventListener('abort', abort, { once: true });
  try {
    const params = regionParams(config);
    // The meshes move to shared memory, and the placed model keeps those copies: one of each.
    for (const o of placed.objects) o.mesh = { vertices: toShared(o.mesh.vertices), indices: toShared(o.mesh.indices) };
    const setup: SetupArgs = {
      meshes: placed.objects.map((o) => o.mesh),
      edges,
      sliceZs: Float64Array.from(specs, (s) => s.sliceZ),
      printZs: Float64Array.from(specs, (s) => s.printZ),
      heights: Float64Array.from(specs, (s) => s.height),
      outline: outlineOptions(config),
      regions: params,
    };
    await runner.broadcast('setup', setup);
    const outlines = await sliceOutlines(placed.objects, specs, runner, progress);
    const pathThreads = req.workers ?? toolpathWorkersFor(outlines);
    if (pathThreads !== runner.threads) {
      await runner.close();
      runner = createRunner(pathThreads);
      await runner.broadcast('setup', setup);
    }
    if (outlines.openChains > 0) {
      warnings.push(
        `the mesh is not closed: ${outlines.openChains} open contour(s) were closed in 2D (largest gap ${outlines.largestGap.toFixed(2)} mm)`,
      );
    }
    const support = config.enable_support ? supportLayers(outlines, specs, config, params) : null;
    progress.enter('gcode');
    const result = await writeOutput({ req, config, placed, specs, outlines, support, params, runner, progress, warnings, repair });
    progress.done();
    return result;
  } catch (err) {
    if (req.signal?.aborted) throw new AppError(ErrorCode.cancelled, 409, 'slice cancelled');
    throw toAppError(err, ErrorCode.sliceFailed);
  } finally {
    req.signal?.removeEventListener('abort', abort);
    await runner.close();
  }
}

/** The parsed model; the file's bytes are not referenced once this returns. */
async function readModel(req: SliceRequest): Promise<Model> {
  const bytes = typeof req.model === 'function' ? await req.model() : req.model;
  return loadModel(bytes, req.fileName, req.inflateLimits);
}

/** Support areas for every layer, from the union of all objects' outlines. */
function supportLayers(outlines: OutlineResult, specs: LayerSpec[], config: PrintConfig, params: RegionParams): SupportLayer[] {
  const cache = new Map<number, ReturnType<F64Reader['exPolygons']>>();
  const slice = (layer: number) => {
    let v = cache.get(layer);
    if (!v) {
      const parts = outlines.objects.flatMap((o) => new F64Reader(o.layers[layer]).exPolygons());
      v = outlines.objects.length > 1 && parts.length ? unionExs(parts) : parts;
      cache.set(layer, v);
      // The planner walks the layers in order; keep only a window around the current one.
      cache.delete(layer + 64);
      cache.delete(layer - 64);
    }
    return v;
  };
  return planSupport(
    specs.length,
    slice,
    Float64Array.from(specs, (s) => s.height),
    supportParams(config, params.widths.support),
  );
}

/** Worker threads for the toolpaths of a job (see TOOLPATH_THRESHOLD and TWO_WORKERS_WORK). */
export function toolpathWorkers(points: number, work: number): number {
  if (points < TOOLPATH_THRESHOLD) return 0;
  const cores = defaultWorkerCount();
  return work < TWO_WORKERS_WORK ? Math.min(cores, 1) : cores;
}

/**
 * Worker threads for the toolpaths of these outlines. Outlines with fewer points in all than the
 * threshold get none whatever repeats among their layers: they are not hashed and parsed again
 * (the box and the small corpus models, a few ms of their slice).
 */
function toolpathWorkersFor(outlines: OutlineResult): number {
  let points = 0;
  for (const o of outlines.objects) for (const layer of o.layers) points += layer.length / 2;
  if (points < TOOLPATH_THRESHOLD) return 0;
  const work = distinctOutlineWork(outlines);
  return toolpathWorkers(work.points, work.points + RING_WORK * work.rings);
}

/** Points and rings of the outlines over all layers, not counting layers identical to the one below. */
function distinctOutlineWork(outlines: OutlineResult): { points: number; rings: number } {
  let points = 0;
  let rings = 0;
  for (const o of outlines.objects) {
    let previous = -1;
    for (const layer of o.layers) {
      const hash = hashPath(layer);
      if (hash !== previous) {
        points += layer.length / 2;
        for (const ex of new F64Reader(layer).exPolygons()) rings += 1 + ex.holes.length;
      }
      previous = hash;
    }
  }
  return { points, rings };
}
