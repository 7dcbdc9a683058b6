// The custom G-code both peers get: our profile's templates rendered by OUR template engine
// (compiled in dist), with the values of this job, so that PrusaSlicer and CuraEngine emit the
// same start and end code as our engine instead of reading OrcaSlicer placeholders their own way
// (CuraEngine evaluates none). Per-layer templates stay templates: only PrusaSlicer runs them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { configFacts, first, round } from './config-facts.mjs';

/** `buildTemplateVars`, `withLayer` and `renderTemplate` of our compiled G-code module. */
export async function loadTemplateEngine(root, dist) {
  const gcode = join(root, dist, 'appliance', 'slicer', 'engine', 'gcode');
  const varsPath = join(gcode, 'template-vars.js');
  const templatePath = join(gcode, 'template', 'index.js');
  for (const path of [varsPath, templatePath]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: build first (npm run build)`);
  }
  const { buildTemplateVars, withLayer } = await import(pathToFileURL(varsPath).href);
  const { renderTemplate } = await import(pathToFileURL(templatePath).href);
  return { buildTemplateVars, withLayer, renderTemplate };
}

/**
 * What the templates may ask about the job, before slicing: layer count and top height from the
 * model's height, the first-layer footprint from its box centred on the bed (where every slicer
 * of the bench puts it). `bounds` is `{ min: [x, y, z], max: [x, y, z] }` in mm.
 */
export function peerJob(config, bounds, inputFilenameBase, date = new Date()) {
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
function heatingPreamble(start, config) {
  if (/\b(PRINT_START|START_PRINT)\b/i.test(start)) return '';
  const { temps } = configFacts(config);
  const lines = [];
  if (temps.bedFirst > 0 && !/^\s*M1(40|90)\b/im.test(start)) lines.push(`M190 S${temps.bedFirst}`);
  if (!/^\s*M10[49]\b/im.test(start)) lines.push(`M109 S${temps.nozzleFirst}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Start, end and filament G-code rendered for one job; layer G-code as templates. */
export function peerGcode(engine, config, job) {
  const vars = engine.buildTemplateVars(config, job.context);
  const lastLayer = { layer_num: job.context.totalLayerCount - 1, layer_z: job.topZ, max_layer_z: job.topZ };
  const start = engine.renderTemplate(config.machine_start_gcode, vars, 'machine_start_gcode');
  return {
    start: heatingPreamble(start, config) + start,
    end: engine.renderTemplate(config.machine_end_gcode, engine.withLayer(vars, lastLayer), 'machine_end_gcode'),
    beforeLayer: config.before_layer_change_gcode,
    layer: config.layer_change_gcode,
    filamentStart: engine.renderTemplate(first(config.filament_start_gcode), vars, 'filament_start_gcode'),
    filamentEnd: engine.renderTemplate(first(config.filament_end_gcode), engine.withLayer(vars, lastLayer), 'filament_end_gcode'),
  };
}
