/**
 * The estimator's answer for one uploaded file: our planner's time (total and per feature type),
 * filament per tool in mm and g, layers and height, and beside them what the file says about
 * itself (the slicer that wrote it, its own time and filament). Grams need the filament's density:
 * the query's, else the one the slicer embedded, else PLA's; which one was used is reported.
 */
import { estimateGcodeFile, type EstimateResult } from '../../slicer/index.js';
import { AppError, ErrorCode } from '../../common/errors.js';
import { type FileFacts, readFileFacts } from './file-facts.js';
import type { ReceivedGcode } from './upload.js';

/** PLA, the most common filament, when neither the request nor the file names a density. */
export const DEFAULT_DENSITY_G_CM3 = 1.24;
export const DEFAULT_DIAMETER_MM = 1.75;

export interface EstimateRequest {
  /** g/cm³, overriding the file's. */
  density?: number;
  /** mm, overriding the file's. */
  diameter?: number;
}

export interface ToolFilament {
  tool: number;
  mm: number;
  g: number;
  density_g_cm3: number;
  diameter_mm: number;
}

export interface EstimateReport {
  file: {
    container: ReceivedGcode['container'];
    upload_bytes: number;
    gcode_bytes: number;
    lines: number;
    plate: string | null;
    plates: string[] | null;
  };
  slicer: { name: string; version: string | null } | null;
  time: { total_s: number; by_feature: { type: string; seconds: number; share: number }[] };
  layers: { count: number; source: 'comments' | 'z'; first_layer_s: number | null };
  height_mm: number | null;
  bounds_mm: { min: [number, number, number]; max: [number, number, number] } | null;
  filament: { tools: ToolFilament[]; total_mm: number; total_g: number; density_source: 'query' | 'file' | 'default' };
  slicer_estimate: { total_s: number | null; difference_percent: number | null; filament_mm: number[] | null; filament_g: number[] | null } | null;
  moves: number;
  extrusions: number;
  estimator: { elapsed_ms: number; mb_per_s: number };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** Per tool: the request's value, else the file's (its last entry serves further tools), else the default. */
function perTool(requested: number | undefined, fromFile: number[] | null, fallback: number, tool: number): number {
  if (requested !== undefined) return requested;
  if (fromFile && fromFile.length > 0) return fromFile[Math.min(tool, fromFile.length - 1)];
  return fallback;
}

function filamentOf(result: EstimateResult, facts: FileFacts, request: EstimateRequest): EstimateReport['filament'] {
  const tools = result.filamentMm.map((mm, tool) => {
    const density = perTool(request.density, facts.densities, DEFAULT_DENSITY_G_CM3, tool);
    const diameter = perTool(request.diameter, facts.diameters, DEFAULT_DIAMETER_MM, tool);
    const cm3 = (mm * Math.PI * (diameter / 2) ** 2) / 1000;
    return { tool, mm: round(mm, 2), g: round(cm3 * density, 2), density_g_cm3: density, diameter_mm: diameter };
  });
  let densitySource: EstimateReport['filament']['density_source'] = 'default';
  if (request.density !== undefined) densitySource = 'query';
  else if (facts.densities) densitySource = 'file';
  return {
    tools,
    total_mm: round(
      tools.reduce((sum, t) => sum + t.mm, 0),
      2,
    ),
    total_g: round(
      tools.reduce((sum, t) => sum + t.g, 0),
      2,
    ),
    density_source: densitySource,
  };
}

function byFeature(result: EstimateResult): EstimateReport['time']['by_feature'] {
  return Object.entries(result.featureS)
    .map(([type, seconds]) => ({ type, seconds: round(seconds, 1), share: result.totalS > 0 ? round(seconds / result.totalS, 4) : 0 }))
    .sort((a, b) => b.seconds - a.seconds);
}

function slicerEstimateOf(facts: FileFacts, totalS: number): EstimateReport['slicer_estimate'] {
  if (facts.slicerEstimateS === null && facts.slicerFilamentMm === null && facts.slicerFilamentG === null) return null;
  const theirs = facts.slicerEstimateS;
  return {
    total_s: theirs,
    difference_percent: theirs !== null && theirs > 0 ? round(((totalS - theirs) / theirs) * 100, 2) : null,
    filament_mm: facts.slicerFilamentMm,
    filament_g: facts.slicerFilamentG,
  };
}

/** Estimates the received G-code and assembles the report. */
export async function estimateReport(received: ReceivedGcode, request: EstimateRequest): Promise<EstimateReport> {
  const started = performance.now();
  const [result, facts] = await Promise.all([estimateGcodeFile(received.path), readFileFacts(received.path)]);
  const elapsedMs = performance.now() - started;
  if (result.moves === 0) throw new AppError(ErrorCode.badRequest, 422, 'the file holds no G-code moves (G0/G1/G2/G3): not a print file');
  const { bounds, layerStartS } = result;
  return {
    file: {
      container: received.container,
      upload_bytes: received.uploadBytes,
      gcode_bytes: received.gcodeBytes,
      lines: result.lines,
      plate: received.plate,
      plates: received.plates,
    },
    slicer: facts.slicer,
    time: { total_s: round(result.totalS, 1), by_feature: byFeature(result) },
    layers: {
      count: layerStartS.length,
      source: result.layerSource,
      first_layer_s: layerStartS.length > 1 ? round(layerStartS[1] - layerStartS[0], 1) : null,
    },
    height_mm: bounds ? round(bounds[5], 3) : null,
    bounds_mm: bounds
      ? {
          min: [bounds[0], bounds[1], bounds[2]].map((v) => round(v, 3)) as [number, number, number],
          max: [bounds[3], bounds[4], bounds[5]].map((v) => round(v, 3)) as [number, number, number],
        }
      : null,
    filament: filamentOf(result, facts, request),
    slicer_estimate: slicerEstimateOf(facts, result.totalS),
    moves: result.moves,
    extrusions: result.extrusions,
    estimator: { elapsed_ms: round(elapsedMs, 1), mb_per_s: round(received.gcodeBytes / 1e6 / (elapsedMs / 1000), 1) },
  };
}
