/**
 * The finished G-code file around the body: the header (identification, thumbnails, summary; or
 * Bambu's header and config blocks), the body with every progress mark made an M73 line from the
 * planner's times, and the footer (PrusaSlicer's statistics and config; or Bambu's end marker).
 */
import type { PrintConfig } from '../../profiles/schema.js';
import type { FilamentUsage, SliceMetadata } from '../api.js';
import type { PlannerResult } from '../estimate/planner.js';
import { bambuConfigBlock, bambuHeaderBlock } from '../gcode/bambu-blocks.js';
import { FileSink, type SinkLimits } from '../gcode/file-sink.js';
import type { Flavour } from '../gcode/flavour.js';
import { prusaFooter } from '../gcode/footer.js';
import { excludeObjectDefinitions, headerSummary } from '../gcode/header.js';
import { identificationLines } from '../gcode/identity.js';
import { copyWithProgress } from '../gcode/progress-marks.js';
import { parseThumbnailSpec, thumbnailBlock, type ThumbnailImage } from '../gcode/thumbnails.js';
import type { LabelledObject, WriterStats } from '../gcode/writer.js';
import type { PlacedModel } from '../mesh/types.js';
import { renderMeshPngs } from '../preview/mesh-render.js';

export interface FinalFileJob {
  /** The temporary file the finished G-code goes to. */
  path: string;
  bodyPath: string;
  limits: SinkLimits;
  config: PrintConfig;
  flavour: Flavour;
  placed: PlacedModel;
  objects: LabelledObject[];
  layers: number;
  maxZ: number;
  stats: WriterStats;
  estimate: PlannerResult;
  /** Time of the start G-code, before the model: Bambu headers give it apart. */
  preparationS: number;
  filament: FilamentUsage;
  version: string;
  date: Date;
  metadata: SliceMetadata | undefined;
  /** Per object, whether its mesh is closed and oriented (the thumbnails draw only its faces towards the camera). */
  closed: readonly boolean[];
}

export async function writeFinalFile(job: FinalFileJob): Promise<void> {
  const { config: c, estimate } = job;
  const layerStart = new Map(estimate.markers.map((m) => [m.tag, m.timeS]));
  const totalS = estimate.totalS;
  const thumbs = thumbnails(job.placed, c, job.closed);
  const m73 = (elapsed: number) =>
    `M73 P${Math.min(100, Math.floor((elapsed / Math.max(totalS, 1e-9)) * 100))} R${Math.max(0, Math.round((totalS - elapsed) / 60))}`;
  const out = await FileSink.create(job.path, job.limits);
  try {
    writeHeader(out, job, thumbs);
    out.write(`${m73(0)}\n`);
    await copyWithProgress(job.bodyPath, out, (tag) => m73(layerStart.get(tag) ?? 0), c.gcode_add_line_number);
    writeFooter(out, job);
    await out.close();
  } finally {
    await out.abort();
  }
}

/** The thumbnails the profile asks for: shaded renders of the model in the first filament's colour. */
function thumbnails(placed: PlacedModel, c: PrintConfig, closed: readonly boolean[]): ThumbnailImage[] {
  const sizes = parseThumbnailSpec(c.thumbnails);
  const pngs = renderMeshPngs(
    placed.objects.map((o) => o.mesh),
    sizes,
    { view: 'iso', color: c.filament_colour[0], closed },
  );
  return sizes.map((t, k) => ({ ...t, png: pngs[k] }));
}

function writeHeader(out: FileSink, job: FinalFileJob, thumbs: ThumbnailImage[]): void {
  const { config: c, version, date, filament, stats } = job;
  const totalS = job.estimate.totalS;
  if (job.flavour.bambu) {
    out.write(
      bambuHeaderBlock({
        version,
        date,
        config: c,
        printTimeS: totalS,
        totalTimeS: totalS + job.preparationS,
        layers: job.layers,
        filament,
        maxZ: job.maxZ,
        labelIds: c.gcode_label_objects ? job.objects.map((o) => o.id) : undefined,
      }),
    );
    out.write(thumbnailBlock(thumbs, { bambuMarkers: true }));
    out.write(bambuConfigBlock(c));
    out.write('; EXECUTABLE_BLOCK_START\n');
    return;
  }
  out.write(identificationLines(version, date));
  out.write(';\n');
  out.write(thumbnailBlock(thumbs));
  out.write(headerSummary(c, totalS, filament.mm, job.layers, stats.bounds));
  if (job.flavour.klipper && c.gcode_label_objects && c.exclude_object) out.write(excludeObjectDefinitions(job.placed, job.objects));
}

function writeFooter(out: FileSink, job: FinalFileJob): void {
  if (job.flavour.bambu) {
    out.write('; EXECUTABLE_BLOCK_END\n');
    return;
  }
  const { filament, metadata } = job;
  out.write(
    prusaFooter(
      job.config,
      { filament, layers: job.layers, estimatedTimeS: job.estimate.totalS, totalToolchanges: 0 },
      {
        print: metadata?.processName,
        printer: metadata?.printerName,
        filament: metadata?.filamentNames,
      },
    ),
  );
}
