/**
 * The G-code body: the layers the workers build streamed in order through the G-code writer into
 * a temporary file, every move timed by the motion planner and drawn on the toolpath preview.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { limitsFromConfig } from '../estimate/limits.js';
import { GcodeEstimator } from '../estimate/estimator.js';
import { MotionPlanner, type PlannerResult } from '../estimate/planner.js';
import { FileSink, type SinkLimits } from '../gcode/file-sink.js';
import type { Flavour } from '../gcode/flavour.js';
import type { HeightChange } from '../gcode/height-changes.js';
import { GcodeWriter, type LabelledObject, type WriterDeps, type WriterStats } from '../gcode/writer.js';
import { bboxOfEx, extendBBox } from '../geometry/polygon.js';
import type { OutlineResult } from '../layers/slice-outlines.js';
import type { LayerSpec } from '../layers/zlist.js';
import { ToolpathRaster } from '../preview/toolpath-raster.js';
import { deepestBridgeBase } from '../regions/internal-bridges.js';
import type { RegionParams } from '../regions/params.js';
import type { SupportLayer } from '../regions/support.js';
import { F64Reader } from '../workers/f64-stream.js';
import type { TaskRunner } from '../workers/runner.js';
import { addAdhesion, type FirstLayer } from './first-layer.js';
import { streamLayers } from './layer-stream.js';
import type { Progress } from './progress.js';

const PREVIEW_SIZE = 512;

export interface BodyJob {
  /** The temporary file the body goes to. */
  path: string;
  limits: SinkLimits;
  config: PrintConfig;
  flavour: Flavour;
  objects: LabelledObject[];
  /** 0-based filament index of each object. */
  filaments: number[];
  render: WriterDeps['render'];
  specs: LayerSpec[];
  outlines: OutlineResult;
  support: SupportLayer[] | null;
  params: RegionParams;
  first: FirstLayer;
  runner: TaskRunner;
  progress: Progress;
  /** Whether to draw the toolpath preview. */
  preview: boolean;
  heightChanges: readonly HeightChange[];
}

export interface Body {
  stats: WriterStats;
  /** The planner's total time and the time at each progress mark. */
  estimate: PlannerResult;
  /**
   * For a Bambu printer, the time of the start G-code (homing, levelling, purging), which its
   * header gives apart from the model's printing time; 0 otherwise.
   */
  preparationS: number;
  preview: ToolpathRaster | null;
}

export async function writeBody(job: BodyJob): Promise<Body> {
  const { config: c, specs, params, progress } = job;
  const total = specs.length;
  const maxZ = specs[total - 1].printZ;
  const sink = await FileSink.create(job.path, job.limits);
  try {
    const planner = new MotionPlanner(limitsFromConfig(c));
    const writer = new GcodeWriter({
      config: c,
      flavour: job.flavour,
      objects: job.objects,
      totalLayers: total,
      render: job.render,
      planner,
      out: (chunk) => sink.write(chunk),
      heightChanges: job.heightChanges,
    });
    const raster = job.preview
      ? new ToolpathRaster({ width: PREVIEW_SIZE, height: PREVIEW_SIZE, bounds: outlineBounds(job.first, job.outlines), maxZ })
      : null;
    const start = writer.start();
    const preparationS = job.flavour.bambu ? textTimeS(start, c) : 0;
    let written = 0;
    await streamLayers(
      {
        specs,
        objects: job.outlines.objects,
        filaments: job.filaments,
        support: job.support,
        above: params.topLayers,
        below:
          Math.max(params.bottomLayers, 1) +
          deepestBridgeBase(
            specs.map((s) => s.printZ),
            specs.map((s) => s.height),
            params,
          ),
      },
      job.runner,
      (layer) => {
        progress.checkCancelled();
        addAdhesion(layer, job.first, c.skirt_height);
        writer.layer(layer);
        raster?.addLayer(layer, layer.index === total - 1);
        written++;
        progress.layer(written, total);
        progress.within(written / (total + 2));
        return sink.drained();
      },
    );
    // The worker threads are done: their heaps would otherwise stay resident while the file is finished.
    await job.runner.close();
    const stats = writer.end();
    await sink.close();
    return { stats, estimate: planner.finish(), preparationS, preview: raster };
  } finally {
    await sink.abort();
  }
}

/** The time the estimator gives a piece of G-code text, run on the profile's machine limits. */
function textTimeS(gcode: string, c: PrintConfig): number {
  const estimator = new GcodeEstimator(limitsFromConfig(c));
  estimator.feed(gcode);
  return estimator.finish().totalS;
}

/** The XY box of every layer's outlines: the preview's frame, found before any toolpath is drawn. */
function outlineBounds(first: FirstLayer, outlines: OutlineResult) {
  const bounds = bboxOfEx(first.outlines.flat());
  for (const o of outlines.objects) {
    for (const buf of o.layers) for (const ex of new F64Reader(buf).exPolygons()) extendBBox(bounds, ex.contour);
  }
  return bounds;
}
