/**
 * The custom G-code a peer slicer gets: our profile's templates rendered by OUR template engine
 * with the values of this job, so that PrusaSlicer and CuraEngine emit the start and end code our
 * engine would emit instead of reading OrcaSlicer placeholders their own way (CuraEngine evaluates
 * none). Per-layer templates stay templates: only PrusaSlicer runs them.
 */
import { buildTemplateVars, withLayer, type TemplateJobContext } from '../engine/gcode/template-vars.js';
import { renderTemplate } from '../engine/gcode/template/index.js';
import type { PrintConfig } from '../profiles/schema.js';
import { configFacts, first, round } from './config-facts.js';

export interface PeerGcode {
  start: string;
  end: string;
  beforeLayer: string;
  layer: string;
  filamentStart: string;
  filamentEnd: string;
}

/** A model's bounding box in mm. */
export interface ModelBounds {
  min: readonly number[];
  max: readonly number[];
}

export interface PeerJob {
  /** Height of the top layer (`max_layer_z` of the end G-code). */
  topZ: number;
  context: TemplateJobContext;
}

/**
 * What the templates may ask about the job, before slicing: layer count and top height from the
 * model's height, the first-layer footprint from its box centred on the bed (where the peers put
 * it).
 */
export function peerJob(config: PrintConfig, bounds: ModelBounds, inputFilenameBase: string, date = new Date()): PeerJob {
  const { bed } = configFacts(config);
  const height = bounds.max[2] - bounds.min[2];
  const firstLayer = config.initial_layer_print_height;
  const layers = height <= firstLayer ? 1 : 1 + Math.ceil((height - firstLayer) / config.layer_height - 1e-9);
  const centre = [(bed.minX + bed.maxX) / 2, (bed.minY + bed.maxY) / 2];
  const half = [(bounds.max[0] - bounds.min[0]) / 2, (bounds.max[1] - bounds.min[1]) / 2];
  return {
    topZ: round(firstLayer + (layers - 1) * config.layer_height),
    context: {
      initialExtruder: 0,
      usedExtruders: [0],
      totalLayerCount: layers,
      firstLayerPrintMin: [round(centre[0] - half[0]), round(centre[1] - half[1])],
      firstLayerPrintMax: [round(centre[0] + half[0]), round(centre[1] + half[1])],
      totalToolchanges: 0,
      inputFilenameBase,
      date,
    },
  };
}

/**
 * Heating our writer emits before a start G-code that does not heat by itself (no M140/M190, no
 * M104/M109, no PRINT_START macro): the peers get it literally, so nobody's own rule differs.
 */
function heatingPreamble(start: string, config: PrintConfig): string {
  if (/\b(PRINT_START|START_PRINT)\b/i.test(start)) return '';
  const { temps } = configFacts(config);
  const lines: string[] = [];
  if (temps.bedFirst > 0 && !/^\s*M1(40|90)\b/im.test(start)) lines.push(`M190 S${temps.bedFirst}`);
  if (!/^\s*M10[49]\b/im.test(start)) lines.push(`M109 S${temps.nozzleFirst}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Start, end and filament G-code rendered for one job; layer G-code as templates. */
export function peerGcode(config: PrintConfig, job: PeerJob): PeerGcode {
  const vars = buildTemplateVars(config, job.context);
  const lastLayer = { layer_num: job.context.totalLayerCount - 1, layer_z: job.topZ, max_layer_z: job.topZ };
  const start = renderTemplate(config.machine_start_gcode, vars, 'machine_start_gcode');
  return {
    start: heatingPreamble(start, config) + start,
    end: renderTemplate(config.machine_end_gcode, withLayer(vars, lastLayer), 'machine_end_gcode'),
    beforeLayer: config.before_layer_change_gcode,
    layer: config.layer_change_gcode,
    filamentStart: renderTemplate(first(config.filament_start_gcode), vars, 'filament_start_gcode'),
    filamentEnd: renderTemplate(first(config.filament_end_gcode), withLayer(vars, lastLayer), 'filament_end_gcode'),
  };
}
