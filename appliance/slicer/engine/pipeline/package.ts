/**
 * The finished G-code put in its place: renamed to the output path, or, for a Bambu printer,
 * packed with its plate's statistics and pictures into the `.gcode.3mf` the printer prints from.
 */
import { rename, rm, stat } from 'node:fs/promises';
import type { PrintConfig } from '../../profiles/schema.js';
import type { FilamentUsage, SliceMetadata } from '../api.js';
import type { BambuObject, PlatePictures } from '../gcode/bambu-package.js';
import type { Flavour } from '../gcode/flavour.js';
import type { LabelledObject, WriterStats } from '../gcode/writer.js';
import { bboxOf, signedArea } from '../geometry/polygon.js';
import { convexHullXY } from '../mesh/footprint.js';
import type { PlacedModel } from '../mesh/types.js';
import { renderMeshPngs, renderPickPng, type ViewBox } from '../preview/mesh-render.js';

export interface PackageJob {
  /** The finished G-code, a temporary file. */
  gcodePath: string;
  outputPath: string;
  config: PrintConfig;
  flavour: Flavour;
  placed: PlacedModel;
  objects: LabelledObject[];
  /** 0-based filament indexes the objects use, ascending. */
  usedFilaments: number[];
  stats: WriterStats;
  totalS: number;
  filament: FilamentUsage;
  version: string;
  /** Preset names, recorded as Bambu Studio's `*_settings_id`. */
  metadata: SliceMetadata | undefined;
}

/** Puts the file in place and answers its size in bytes. */
export async function packageOutput(job: PackageJob): Promise<number> {
  if (!job.flavour.bambu) {
    await rename(job.gcodePath, job.outputPath);
    return (await stat(job.outputPath)).size;
  }
  const { config: c, filament, stats } = job;
  // Loaded for Bambu output only: its zip library is a noticeable part of start-up otherwise.
  const { writeGcode3mf } = await import('../gcode/bambu-package.js');
  const plate = await writeGcode3mf({
    gcodePath: job.gcodePath,
    outputPath: job.outputPath,
    config: c,
    version: job.version,
    plate: {
      prediction_s: Math.round(job.totalS),
      weight_g: filament.g.reduce((a, b) => a + b, 0),
      filaments: job.usedFilaments.map((k) => ({
        id: k + 1,
        type: c.filament_type[Math.min(k, c.filament_type.length - 1)],
        color: c.filament_colour[Math.min(k, c.filament_colour.length - 1)],
        tray_info_idx: c.filament_id[Math.min(k, c.filament_id.length - 1)],
        used_m: filament.mm[k] / 1000,
        used_g: filament.g[k],
      })),
      bbox: [stats.bounds[0], stats.bounds[1], stats.bounds[3], stats.bounds[4]],
    },
    thumbnails: platePictures(job, bedBox(c)),
    objects: bambuObjects(job),
    presets: { printer: job.metadata?.printerName, print: job.metadata?.processName, filaments: job.metadata?.filamentNames },
  });
  await rm(job.gcodePath, { force: true });
  return plate.sizeBytes;
}

/** Each object's identify_id, name and footprint, for slice_info.config and plate_1.json. */
function bambuObjects(job: PackageJob): BambuObject[] {
  return job.objects.map((o, k) => {
    const hull = convexHullXY(job.placed.objects[k].mesh);
    const box = bboxOf([hull]);
    return { id: o.id, name: o.name, bbox: [box.minX, box.minY, box.maxX, box.maxY], area: Math.abs(signedArea(hull)) };
  });
}

/** The printable area's extent on the bed. */
function bedBox(c: PrintConfig): ViewBox {
  const xs = c.printable_area.map((p) => p[0]);
  const ys = c.printable_area.map((p) => p[1]);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

/**
 * The plate pictures of a Bambu package: the model from the front at 512 and 128 pixels square,
 * from one drawing, and the whole bed from above, lit (top_1.png) and in identify_id colours
 * (pick_1.png), the two framed alike so a pixel of one is the same spot in the other.
 */
function platePictures(job: PackageJob, bed: ViewBox): PlatePictures {
  const meshes = job.placed.objects.map((o) => o.mesh);
  const color = job.config.filament_colour[0];
  const [png, small] = renderMeshPngs(
    meshes,
    [
      { width: 512, height: 512 },
      { width: 128, height: 128 },
    ],
    { view: 'iso', color },
  );
  const top = { width: 512, height: 512, view: 'top' as const, frame: bed };
  const [topPng] = renderMeshPngs(meshes, [top], { ...top, color });
  const pick = renderPickPng(
    meshes,
    job.objects.map((o) => o.id),
    top,
  );
  return { png, small_png: small, top_png: topPng, pick_png: pick };
}
