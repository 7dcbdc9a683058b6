/**
 * The finished G-code put in its place: renamed to the output path, or, for a Bambu printer,
 * packed with its plate's statistics and pictures into the `.gcode.3mf` the printer prints from.
 */
import { rename, rm, stat } from 'node:fs/promises';
import type { PrintConfig } from '../../profiles/schema.js';
import type { FilamentUsage } from '../api.js';
import type { Flavour } from '../gcode/flavour.js';
import type { LabelledObject, WriterStats } from '../gcode/writer.js';
import type { IndexedMesh, PlacedModel } from '../mesh/types.js';
import { renderMeshPngs } from '../preview/mesh-render.js';

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
        used_m: filament.mm[k] / 1000,
        used_g: filament.g[k],
      })),
      bbox: [stats.bounds[0], stats.bounds[1], stats.bounds[3], stats.bounds[4]],
    },
    thumbnails: bambuThumbnails(
      job.placed.objects.map((o) => o.mesh),
      c.filament_colour[0],
    ),
    objects: job.objects.map((o) => ({ id: o.id, name: o.name })),
  });
  await rm(job.gcodePath, { force: true });
  return plate.sizeBytes;
}

/** The plate pictures of a Bambu package: 512 and 128 pixels square, from one drawing. */
function bambuThumbnails(meshes: IndexedMesh[], color: string): { png: Uint8Array; small_png: Uint8Array } {
  const [png, small] = renderMeshPngs(
    meshes,
    [
      { width: 512, height: 512 },
      { width: 128, height: 128 },
    ],
    { view: 'iso', color },
  );
  return { png, small_png: small };
}
