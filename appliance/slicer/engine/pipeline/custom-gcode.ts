/**
 * The profile's custom G-code (start, end, layer change, tool change…) rendered for this job: the
 * job's variables, and the layer's where there is one.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import type { SliceMetadata } from '../api.js';
import { renderTemplate } from '../gcode/template/index.js';
import { buildTemplateVars, withLayer } from '../gcode/template-vars.js';
import type { WriterDeps } from '../gcode/writer.js';
import type { BBox2 } from '../geometry/types.js';

export interface TemplateJob {
  /** The model's file name. */
  fileName: string;
  metadata: SliceMetadata | undefined;
  /** 0-based filament indexes the objects use, ascending. */
  usedFilaments: number[];
  layers: number;
  maxZ: number;
  /** XY box of the first layer, skirt and brim included. */
  firstLayerBox: BBox2;
  date: Date;
}

/** Anything but whitespace (what `trim` would leave). */
const NOT_BLANK = /\S/;

export function customGcodeRenderer(c: PrintConfig, job: TemplateJob): WriterDeps['render'] {
  const { usedFilaments: used, layers, firstLayerBox: box } = job;
  const vars = buildTemplateVars(c, {
    initialExtruder: used[0] ?? 0,
    usedExtruders: used,
    totalLayerCount: layers,
    firstLayerPrintMin: [box.minX, box.minY],
    firstLayerPrintMax: [box.maxX, box.maxY],
    totalToolchanges: Math.max(0, used.length - 1) * layers,
    inputFilenameBase: job.fileName.replace(/\.[^.]*$/, '').replace(/\.gcode$/, ''),
    date: job.date,
    printSettingsId: job.metadata?.processName,
    printerSettingsId: job.metadata?.printerName,
    filamentSettingsId: job.metadata?.filamentNames,
  });
  // Per layer (two templates each): no trimmed copy of the source, no object spread for the layer's values.
  return (source, where, layer, extra) => {
    if (!NOT_BLANK.test(source)) return '';
    const scope = withLayer(vars, { layer_num: layer?.num ?? 0, layer_z: layer?.z ?? 0, max_layer_z: job.maxZ });
    if (extra) Object.assign(scope, extra);
    return renderTemplate(source, scope, where);
  };
}
