/**
 * The gcode stage and the finished file, step by step: the first layer's skirt and brim
 * (`first-layer.ts`) and the custom G-code's variables (`custom-gcode.ts`), the body written from
 * the workers' layers and timed (`body.ts`), the file assembled around it with M73 progress
 * (`final-file.ts`), then put in place or packaged for a Bambu printer (`package.ts`). The
 * temporary files are removed whatever the outcome.
 */
import { rm } from 'node:fs/promises';
import { packageVersion } from '../../../common/version.js';
import type { PrintConfig } from '../../profiles/schema.js';
import type { FilamentUsage, SliceRequest, SliceResult } from '../api.js';
import { flavourOf, type Flavour } from '../gcode/flavour.js';
import { filamentArea, type LabelledObject } from '../gcode/writer.js';
import type { OutlineResult } from '../layers/slice-outlines.js';
import type { LayerSpec } from '../layers/zlist.js';
import type { PlacedModel, RepairReport } from '../mesh/types.js';
import type { RegionParams } from '../regions/params.js';
import type { SupportLayer } from '../regions/support.js';
import type { TaskRunner } from '../workers/runner.js';
import { writeBody } from './body.js';
import { customGcodeRenderer } from './custom-gcode.js';
import { writeFinalFile } from './final-file.js';
import { planFirstLayer } from './first-layer.js';
import { packageOutput } from './package.js';
import type { Progress } from './progress.js';

export interface OutputInput {
  req: SliceRequest;
  config: PrintConfig;
  placed: PlacedModel;
  specs: LayerSpec[];
  outlines: OutlineResult;
  support: SupportLayer[] | null;
  params: RegionParams;
  runner: TaskRunner;
  progress: Progress;
  warnings: string[];
  repair: RepairReport[];
}

/**
 * Object ids count from 0 (M486, EXCLUDE_OBJECT), but from 1 for a Bambu printer: there the id is
 * the object's `identify_id`, which Bambu Studio reads as "no id" when it is 0.
 */
function labels(placed: PlacedModel, flavour: Flavour): LabelledObject[] {
  const first = flavour.bambu ? 1 : 0;
  return placed.objects.map((o, k) => {
    const id = first + k;
    return { id, name: o.name, label: `${o.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}_id_${id}` };
  });
}

function filamentUsage(c: PrintConfig, mm: number[]): FilamentUsage {
  const cm3 = mm.map((l, k) => (l * filamentArea(c, k)) / 1000);
  const g = cm3.map((v, k) => v * c.filament_density[Math.min(k, c.filament_density.length - 1)]);
  const cost = g.map((w, k) => (w / 1000) * c.filament_cost[Math.min(k, c.filament_cost.length - 1)]);
  return { mm, cm3, g, cost };
}

export async function writeOutput(i: OutputInput): Promise<SliceResult> {
  const { req, config: c, placed, specs } = i;
  const flavour = flavourOf(c.gcode_flavor);
  const objects = labels(placed, flavour);
  const date = new Date();
  const version = packageVersion();
  const layers = specs.length;
  const maxZ = specs[layers - 1].printZ;
  const first = planFirstLayer(i.outlines, placed, c, i.params, specs[0]);
  const filaments = placed.objects.map((o) => o.filament - 1);
  const usedFilaments = [...new Set(filaments)].sort((a, b) => a - b);
  const render = customGcodeRenderer(c, {
    fileName: req.fileName,
    metadata: req.metadata,
    usedFilaments,
    layers,
    maxZ,
    firstLayerBox: first.box,
    date,
  });

  const bodyPath = `${req.outputPath}.body.tmp`;
  const finalPath = flavour.bambu ? `${req.outputPath}.gcode.tmp` : `${req.outputPath}.tmp`;
  // The body is the most of the final file: both stop at the same size.
  const limits = { maxBytes: req.maxOutputBytes, minFreeBytes: req.minFreeBytes };
  try {
    const { stats, estimate, preparationS, preview } = await writeBody({
      path: bodyPath,
      limits,
      config: c,
      flavour,
      objects,
      filaments,
      render,
      specs,
      outlines: i.outlines,
      support: i.support,
      params: i.params,
      first,
      runner: i.runner,
      progress: i.progress,
      preview: req.preview !== false,
      heightChanges: req.heightChanges ?? [],
    });
    const filament = filamentUsage(c, stats.filamentMm);
    await writeFinalFile({
      path: finalPath,
      bodyPath,
      limits,
      config: c,
      flavour,
      placed,
      objects,
      layers,
      maxZ,
      stats,
      estimate,
      preparationS,
      filament,
      version,
      date,
      metadata: req.metadata,
      closed: i.repair.map((r) => r.openEdges === 0 && r.nonManifoldEdges === 0),
    });
    const sizeBytes = await packageOutput({
      gcodePath: finalPath,
      outputPath: req.outputPath,
      config: c,
      flavour,
      placed,
      objects,
      usedFilaments,
      stats,
      totalS: estimate.totalS + preparationS,
      filament,
      version,
      metadata: req.metadata,
    });
    return {
      outputPath: req.outputPath,
      format: flavour.bambu ? 'gcode.3mf' : 'gcode',
      sizeBytes,
      layers,
      estimatedTimeS: Math.round(estimate.totalS + preparationS),
      filament,
      bounds: stats.bounds,
      repair: i.repair,
      warnings: i.warnings,
      preview: preview?.toPng() ?? null,
    };
  } finally {
    await rm(bodyPath, { force: true });
    await rm(`${req.outputPath}.tmp`, { force: true });
    await rm(`${req.outputPath}.gcode.tmp`, { force: true });
  }
}
