/**
 * The gcode stage and the finished file: adhesion, the G-code writer fed layer by layer from the
 * workers, the estimate, then header (identification, thumbnails, summary), body with M73
 * progress, and the PrusaSlicer-compatible footer, or the Bambu blocks and `.gcode.3mf` package.
 */
import { open, rename, rm, stat } from 'node:fs/promises';
import type { PrintConfig } from '../../profiles/schema.js';
import { packageVersion } from '../../../common/version.js';
import type { SliceRequest, SliceResult } from '../api.js';
import { unionExs } from '../geometry/clipper.js';
import { bboxOfEx, extendBBox } from '../geometry/polygon.js';
import type { ExPolygon } from '../geometry/types.js';
import { bambuConfigBlock, bambuHeaderBlock } from '../gcode/bambu-blocks.js';
import { FileSink } from '../gcode/file-sink.js';
import { flavourOf } from '../gcode/flavour.js';
import { prusaFooter } from '../gcode/footer.js';
import { identificationLines } from '../gcode/identity.js';
import { renderTemplate } from '../gcode/template/index.js';
import { buildTemplateVars, withLayer } from '../gcode/template-vars.js';
import { parseThumbnailSpec, thumbnailBlock } from '../gcode/thumbnails.js';
import { PROGRESS_MARK } from '../gcode/formatter.js';
import { GcodeWriter, filamentArea, type LabelledObject } from '../gcode/writer.js';
import { streamLayers } from './layer-stream.js';
import type { LayerSpec } from '../layers/zlist.js';
import { convexHullXY } from '../mesh/footprint.js';
import type { IndexedMesh, PlacedModel, RepairReport } from '../mesh/types.js';
import { renderMeshPngs } from '../preview/mesh-render.js';
import { ToolpathRaster } from '../preview/toolpath-raster.js';
import type { Progress } from './progress.js';
import { brimLoops, skirtLoops } from '../regions/adhesion.js';
import { deepestBridgeBase } from '../regions/internal-bridges.js';
import { crossSection, widthFor } from '../regions/flow.js';
import type { RegionParams } from '../regions/params.js';
import type { SupportLayer } from '../regions/support.js';
import type { OutlineResult } from '../layers/slice-outlines.js';
import { limitsFromConfig } from '../estimate/limits.js';
import { MotionPlanner } from '../estimate/planner.js';
import type { Extrusion } from '../toolpath/types.js';
import { F64Reader } from '../workers/f64-stream.js';
import type { TaskRunner } from '../workers/runner.js';

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

const PREVIEW_SIZE = 512;

function labels(placed: PlacedModel): LabelledObject[] {
  return placed.objects.map((o, id) => ({ id, name: o.name, label: `${o.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}_id_${id}` }));
}

function adhesionFor(first: ExPolygon[][], heights: number[], c: PrintConfig, p: RegionParams, spec0: LayerSpec): { brim: Extrusion[]; skirt: Extrusion[] } {
  const width = widthFor('brim', p.widths, true);
  const brim = brimLoops(first.map((islands, k) => ({ islands, height: heights[k] })), c, width, spec0.height);
  const skirt = skirtLoops(first.flat(), brim, c, width, spec0.height);
  return { brim, skirt };
}

/** The skirt of layer 0 reprinted at a higher layer's height. */
function skirtAt(skirt: Extrusion[], height: number): Extrusion[] {
  return skirt.map((e) => ({ ...e, height, mm3PerMm: crossSection(e.width, height) }));
}

function filamentUsage(c: PrintConfig, mm: number[]) {
  const cm3 = mm.map((l, k) => (l * filamentArea(c, k)) / 1000);
  const g = cm3.map((v, k) => v * c.filament_density[Math.min(k, c.filament_density.length - 1)]);
  const cost = g.map((w, k) => (w / 1000) * c.filament_cost[Math.min(k, c.filament_cost.length - 1)]);
  return { mm, cm3, g, cost };
}

export async function writeOutput(i: OutputInput): Promise<SliceResult> {
  const { req, config: c, placed, specs, outlines, params, progress } = i;
  const flavour = flavourOf(c.gcode_flavor);
  const objects = labels(placed);
  const date = new Date();
  const version = packageVersion();
  const total = specs.length;

  const firstLayer = outlines.objects.map((o) => new F64Reader(o.layers[0]).exPolygons());
  const heights = placed.objects.map((o) => {
    let top = 0;
    for (let k = 2; k < o.mesh.vertices.length; k += 3) top = Math.max(top, o.mesh.vertices[k]);
    return top;
  });
  const { brim, skirt } = adhesionFor(firstLayer, heights, c, params, specs[0]);
  const firstBox = bboxOfEx(unionExs([...firstLayer.flat(), ...[...brim, ...skirt].map((e) => ({ contour: e.points, holes: [] }))]));

  const filaments = placed.objects.map((o) => o.filament - 1);
  const used = [...new Set(filaments)].sort((a, b) => a - b);
  const vars = buildTemplateVars(c, {
    initialExtruder: used[0] ?? 0,
    usedExtruders: used,
    totalLayerCount: total,
    firstLayerPrintMin: [firstBox.minX, firstBox.minY],
    firstLayerPrintMax: [firstBox.maxX, firstBox.maxY],
    totalToolchanges: Math.max(0, used.length - 1) * total,
    inputFilenameBase: req.fileName.replace(/\.[^.]*$/, '').replace(/\.gcode$/, ''),
    date,
    printSettingsId: req.metadata?.processName,
    printerSettingsId: req.metadata?.printerName,
    filamentSettingsId: req.metadata?.filamentNames,
  });
  const maxZ = specs[total - 1].printZ;
  const render = (source: string, where: string, layer: { num: number; z: number } | null, extra: Record<string, number> = {}) => {
    if (source.trim() === '') return '';
    const scope = layer ? withLayer(vars, { layer_num: layer.num, layer_z: layer.z, max_layer_z: maxZ, ...extra }) : withLayer(vars, { layer_num: 0, layer_z: 0, max_layer_z: maxZ, ...extra });
    return renderTemplate(source, scope, where);
  };

  const bodyPath = `${req.outputPath}.body.tmp`;
  // The body is the most of the final file: both stop at the same size.
  const limits = { maxBytes: req.maxOutputBytes, minFreeBytes: req.minFreeBytes };
  const body = await FileSink.create(bodyPath, limits);
  const planner = new MotionPlanner(limitsFromConfig(c));
  const writer = new GcodeWriter({
    config: c, flavour, objects, totalLayers: total, render,
    planner,
    out: (chunk) => body.write(chunk),
  });
  const raster = req.preview === false ? null : new ToolpathRaster({ width: PREVIEW_SIZE, height: PREVIEW_SIZE, bounds: outlineBounds(firstLayer, outlines), maxZ });
  let out: FileSink | null = null;

  try {
    writer.start();
    let written = 0;
    await streamLayers({
      specs, objects: outlines.objects, filaments, support: i.support,
      above: params.topLayers, below: Math.max(params.bottomLayers, 1) + deepestBridgeBase(specs.map((s) => s.printZ), specs.map((s) => s.height), params),
    }, i.runner, (layer) => {
      progress.checkCancelled();
      if (layer.index === 0) layer.adhesion = [...skirt, ...brim];
      else if (layer.index < c.skirt_height) layer.adhesion = skirtAt(skirt, layer.height);
      writer.layer(layer);
      raster?.addLayer(layer, layer.index === total - 1);
      written++;
      progress.layer(written, total);
      progress.within(written / (total + 2));
      return body.drained();
    });
    // The worker threads are done: their heaps would otherwise stay resident while the file is finished.
    await i.runner.close();
    const stats = writer.end();
    await body.close();
    const estimate = planner.finish();
    const layerStart = new Map(estimate.markers.map((m) => [m.tag, m.timeS]));
    const totalS = estimate.totalS;
    const filament = filamentUsage(c, stats.filamentMm);

    const meshes = placed.objects.map((o) => o.mesh);
    const sizes = parseThumbnailSpec(c.thumbnails);
    const pngs = renderMeshPngs(meshes, sizes, { view: 'iso', color: c.filament_colour[0] });
    const thumbs = sizes.map((t, k) => ({ ...t, png: pngs[k] }));
    const m73 = (elapsed: number) => `M73 P${Math.min(100, Math.floor((elapsed / Math.max(totalS, 1e-9)) * 100))} R${Math.max(0, Math.round((totalS - elapsed) / 60))}`;

    const final = flavour.bambu ? `${req.outputPath}.gcode.tmp` : `${req.outputPath}.tmp`;
    out = await FileSink.create(final, limits);
    if (flavour.bambu) {
      out.write(bambuHeaderBlock({ version, date, config: c, printTimeS: totalS, layers: total, filament, maxZ }));
      out.write(thumbnailBlock(thumbs, { bambuMarkers: true }));
      out.write(bambuConfigBlock(c));
      out.write('; EXECUTABLE_BLOCK_START\n');
    } else {
      out.write(identificationLines(version, date));
      out.write(';\n');
      out.write(thumbnailBlock(thumbs));
      out.write(headerSummary(c, totalS, filament.mm, total, stats.bounds));
      if (flavour.klipper && c.gcode_label_objects && c.exclude_object) out.write(excludeObjectDefinitions(placed, objects));
    }
    out.write(m73(0) + '\n');
    await copyWithProgress(bodyPath, out, (tag) => m73(layerStart.get(tag) ?? 0), c.gcode_add_line_number);
    if (flavour.bambu) out.write('; EXECUTABLE_BLOCK_END\n');
    else {
      out.write(prusaFooter(c, { filament, layers: total, estimatedTimeS: totalS, totalToolchanges: 0 }, {
        print: req.metadata?.processName, printer: req.metadata?.printerName, filament: req.metadata?.filamentNames,
      }));
    }
    await out.close();

    let sizeBytes: number;
    if (flavour.bambu) {
      // Loaded for Bambu output only: its zip library is a noticeable part of start-up otherwise.
      const { writeGcode3mf } = await import('../gcode/bambu-package.js');
      const plate = await writeGcode3mf({
        gcodePath: final,
        outputPath: req.outputPath,
        config: c,
        version,
        plate: {
          prediction_s: Math.round(totalS),
          weight_g: filament.g.reduce((a, b) => a + b, 0),
          filaments: used.map((k) => ({
            id: k + 1,
            type: c.filament_type[Math.min(k, c.filament_type.length - 1)],
            color: c.filament_colour[Math.min(k, c.filament_colour.length - 1)],
            used_m: filament.mm[k] / 1000,
            used_g: filament.g[k],
          })),
          bbox: [stats.bounds[0], stats.bounds[1], stats.bounds[3], stats.bounds[4]],
        },
        thumbnails: bambuThumbnails(meshes, c.filament_colour[0]),
        objects: objects.map((o) => ({ id: o.id, name: o.name })),
      });
      await rm(final, { force: true });
      sizeBytes = plate.sizeBytes;
    } else {
      await rename(final, req.outputPath);
      sizeBytes = (await stat(req.outputPath)).size;
    }
    return {
      outputPath: req.outputPath,
      format: flavour.bambu ? 'gcode.3mf' : 'gcode',
      sizeBytes,
      layers: total,
      estimatedTimeS: Math.round(totalS),
      filament,
      bounds: stats.bounds,
      repair: i.repair,
      warnings: i.warnings,
      preview: raster?.toPng() ?? null,
    };
  } finally {
    await body.abort();
    await out?.abort();
    await rm(bodyPath, { force: true });
    await rm(`${req.outputPath}.tmp`, { force: true });
    await rm(`${req.outputPath}.gcode.tmp`, { force: true });
  }
}

/** The plate pictures of a Bambu package: 512 and 128 pixels square, from one drawing. */
function bambuThumbnails(meshes: IndexedMesh[], color: string): { png: Uint8Array; small_png: Uint8Array } {
  const [png, small] = renderMeshPngs(meshes, [{ width: 512, height: 512 }, { width: 128, height: 128 }], { view: 'iso', color });
  return { png, small_png: small };
}

/** The XY box of every layer's outlines: the preview's frame, found before any toolpath is drawn. */
function outlineBounds(firstLayer: ExPolygon[][], outlines: OutlineResult) {
  const bounds = bboxOfEx(firstLayer.flat());
  for (const o of outlines.objects) {
    for (const buf of o.layers) for (const ex of new F64Reader(buf).exPolygons()) extendBBox(bounds, ex.contour);
  }
  return bounds;
}

/** Cura-style summary lines that several printer displays and OctoPrint plugins read. */
function headerSummary(c: PrintConfig, totalS: number, mm: number[], layers: number, b: [number, number, number, number, number, number]): string {
  const metres = mm.reduce((a, v) => a + v, 0) / 1000;
  return [
    `;FLAVOR:${c.gcode_flavor === 'klipper' ? 'Klipper' : 'Marlin'}`,
    `;TIME:${Math.round(totalS)}`,
    `;Filament used: ${metres.toFixed(5)}m`,
    `;Layer height: ${c.layer_height}`,
    `;MINX:${b[0].toFixed(3)}`, `;MINY:${b[1].toFixed(3)}`, `;MINZ:${b[2].toFixed(3)}`,
    `;MAXX:${b[3].toFixed(3)}`, `;MAXY:${b[4].toFixed(3)}`, `;MAXZ:${b[5].toFixed(3)}`,
    `;LAYER_COUNT:${layers}`,
    '',
  ].join('\n');
}

function excludeObjectDefinitions(placed: PlacedModel, objects: LabelledObject[]): string {
  const lines = placed.objects.map((o, k) => {
    const hull = convexHullXY(o.mesh);
    const pts: string[] = [];
    let cx = 0;
    let cy = 0;
    const n = hull.length >> 1;
    for (let p = 0; p < n; p++) {
      pts.push(`[${hull[p * 2].toFixed(3)},${hull[p * 2 + 1].toFixed(3)}]`);
      cx += hull[p * 2] / n;
      cy += hull[p * 2 + 1] / n;
    }
    return `EXCLUDE_OBJECT_DEFINE NAME=${objects[k].label} CENTER=${cx.toFixed(3)},${cy.toFixed(3)} POLYGON=[${pts.join(',')}]`;
  });
  return lines.join('\n') + '\n';
}

/** Bytes of the body read at a time when it is copied into the final file. */
const COPY_CHUNK = 1 << 20;
const MARK_BYTES = Buffer.from(PROGRESS_MARK);
const NEWLINE = 0x0a;

/**
 * Copies the body, turning each progress mark into an M73 line, chunk by chunk, and numbering the
 * commands (`N123 G1 …`) when the profile asks for line numbers. Without numbering the bytes are
 * copied as they are, never decoded into strings: a big print's body passes through in pieces of
 * a megabyte (a new one each: the sink holds on to a piece until it is written).
 */
async function copyWithProgress(path: string, out: FileSink, m73: (tag: string) => string, lineNumbers: boolean): Promise<void> {
  let n = 0;
  const number = (text: string) => text.replace(/^(?=[^;\n])/gm, () => `N${++n} `);
  const emit = lineNumbers
    ? (bytes: Buffer) => out.write(number(replaceMarks(bytes, m73).map((part) => part.toString()).join('')))
    : (bytes: Buffer) => { for (const part of replaceMarks(bytes, m73)) out.write(part); };
  const body = await open(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      const chunk = Buffer.allocUnsafe(carry.length + COPY_CHUNK);
      carry.copy(chunk);
      const { bytesRead } = await body.read(chunk, carry.length, COPY_CHUNK, null);
      if (bytesRead === 0) break;
      const bytes = chunk.subarray(0, carry.length + bytesRead);
      const cut = bytes.lastIndexOf(NEWLINE) + 1;
      carry = bytes.subarray(cut);
      emit(bytes.subarray(0, cut));
      await out.drained();
    }
    emit(carry);
  } finally {
    await body.close();
  }
}

/** The pieces of `bytes` with every progress mark line replaced by its M73 line. */
function replaceMarks(bytes: Buffer, m73: (tag: string) => string): (Buffer | string)[] {
  const parts: (Buffer | string)[] = [];
  let from = 0;
  for (let at = bytes.indexOf(MARK_BYTES); at >= 0; at = bytes.indexOf(MARK_BYTES, from)) {
    const end = bytes.indexOf(NEWLINE, at);
    const stop = end < 0 ? bytes.length : end;
    parts.push(bytes.subarray(from, at), m73(bytes.toString('latin1', at + MARK_BYTES.length, stop)));
    from = stop;
  }
  parts.push(bytes.subarray(from));
  return parts;
}
