/**
 * The slicing stage: every object cut into island outlines for every layer, in parallel chunks.
 * Outlines stay encoded (one Float64Array per layer and object): compact, and ready to be sent
 * to the workers that build the layers' toolpaths.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import type { ModelObject } from '../mesh/types.js';
import type { Progress } from '../pipeline/progress.js';
import type { TaskRunner } from '../workers/runner.js';
import type { SliceOutput } from '../workers/tasks.js';
import type { OutlineOptions } from './slices.js';
import { layerSpecs, type LayerSpec } from './zlist.js';

export interface ObjectOutlines {
  /** Encoded ExPolygon list per layer (index = layer). */
  layers: Float64Array[];
  /** Last layer with anything in it, -1 if none. */
  top: number;
}

export interface OutlineResult {
  specs: LayerSpec[];
  objects: ObjectOutlines[];
  openChains: number;
  largestGap: number;
}

export function outlineOptions(c: PrintConfig): OutlineOptions {
  return {
    closingRadius: c.slice_closing_radius,
    resolution: c.resolution,
    xyContourCompensation: c.xy_contour_compensation,
    xyHoleCompensation: c.xy_hole_compensation,
    elephantFootCompensation: c.elefant_foot_compensation,
  };
}

export function planLayers(objects: ModelObject[], c: PrintConfig): LayerSpec[] {
  let height = 0;
  for (const o of objects) {
    const v = o.mesh.vertices;
    for (let k = 2; k < v.length; k += 3) if (v[k] > height) height = v[k];
  }
  return layerSpecs(height, c.initial_layer_print_height, c.layer_height);
}

/** An empty outline list, encoded (count 0). */
const EMPTY = new Float64Array([0]);

export async function sliceOutlines(objects: ModelObject[], specs: LayerSpec[], runner: TaskRunner, progress: Progress): Promise<OutlineResult> {
  const total = specs.length;
  const chunk = Math.max(4, Math.ceil(total / (runner.lanes * 4)));
  const jobs: { object: number; first: number; last: number }[] = [];
  objects.forEach((o, object) => {
    const v = o.mesh.vertices;
    let top = 0;
    for (let k = 2; k < v.length; k += 3) if (v[k] > top) top = v[k];
    const lastLayer = specs.findIndex((s) => s.sliceZ > top);
    const end = lastLayer < 0 ? total : lastLayer;
    for (let first = 0; first < end; first += chunk) jobs.push({ object, first, last: Math.min(end, first + chunk) });
  });
  const result: ObjectOutlines[] = objects.map(() => ({ layers: new Array<Float64Array>(total).fill(EMPTY), top: -1 }));
  let openChains = 0;
  let largestGap = 0;
  let done = 0;
  const perLayer = new Uint16Array(total);
  let reported = 0;
  const take = (job: (typeof jobs)[number], r: SliceOutput) => {
    progress.checkCancelled();
    openChains += r.openChains;
    largestGap = Math.max(largestGap, r.largestGap);
    r.layers.forEach((buf, k) => {
      result[job.object].layers[r.first + k] = buf;
      perLayer[r.first + k]++;
    });
    done += job.last - job.first;
    // Layer events once every object's part of a layer is done, in order.
    while (reported < total && perLayer[reported] >= objectsCovering(jobs, reported)) progress.layer(++reported, total);
    progress.within(
      done /
        Math.max(
          1,
          jobs.reduce((a, j) => a + j.last - j.first, 0),
        ),
    );
  };
  // The workers' shares are sent off first; this thread then works through its own share.
  const remote = jobs.map((job, k) => (runner.isLocal(k) ? null : runner.run('slice', job).then((r) => take(job, r))));
  for (const p of remote) p?.catch(() => undefined);
  for (let k = 0; k < jobs.length; k++) {
    if (!runner.isLocal(k)) continue;
    await runner.letEventsThrough();
    take(jobs[k], runner.runHere('slice', jobs[k]));
  }
  await Promise.all(remote);
  while (reported < total) progress.layer(++reported, total);
  for (const o of result) o.top = lastNonEmpty(o.layers);
  return { specs, objects: result, openChains, largestGap };
}

function objectsCovering(jobs: { first: number; last: number }[], layer: number): number {
  let n = 0;
  for (const j of jobs) if (layer >= j.first && layer < j.last) n++;
  return n;
}

function lastNonEmpty(layers: Float64Array[]): number {
  for (let k = layers.length - 1; k >= 0; k--) if (layers[k][0] > 0) return k;
  return -1;
}
