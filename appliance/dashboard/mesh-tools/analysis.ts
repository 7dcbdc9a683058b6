/**
 * The report of a model: its size and shape, and what is wrong with it, per object and in total.
 * Counts describe the mesh as uploaded (after the exact welding every loader does); volume, area
 * and shells describe it once repaired (oriented outward, holes filled), since an open or
 * inside-out mesh has no meaningful volume of its own. Self-intersections are not looked for:
 * finding them costs a spatial index over every triangle pair, more than an upload should.
 */
import { meshBounds, type BBox3 } from '../../slicer/index.js';
import { surfaceArea } from './measure.js';
import type { MeshModel } from './read-model.js';
import { type MeshRepair, repairForOutput } from './repair.js';

export interface MeshFacts {
  triangles: number;
  vertices: number;
  /** mm³, of the repaired mesh (cavities subtracted). */
  volume: number;
  /** mm², of the repaired mesh. */
  area: number;
  bbox: { min: number[]; max: number[]; size: number[] };
  shells: number;
  openEdges: number;
  holes: number;
  nonManifoldEdges: number;
  flippedNormals: number;
  invertedShells: number;
  degenerateFaces: number;
  duplicateFaces: number;
  needsRepair: boolean;
}

export interface ObjectReport extends MeshFacts {
  name: string;
}

export interface ModelReport extends MeshFacts {
  format: string;
  objects: ObjectReport[];
  /** What repair changes (for /repair: what it changed), all objects together. */
  repair: MeshRepair['changes'];
  warnings: string[];
}

const round = (value: number, digits = 3): number => Number(value.toFixed(digits));
const roundAll = (values: readonly number[]): number[] => values.map((v) => round(v, 4));

function bboxFacts(box: BBox3): MeshFacts['bbox'] {
  return { min: roundAll(box.min), max: roundAll(box.max), size: roundAll(box.max.map((v, k) => v - box.min[k])) };
}

function objectFacts(name: string, input: MeshModel['objects'][number]['mesh'], repaired: MeshRepair): ObjectReport {
  const found = repaired.found;
  const openEdges = found.inputOpenEdges ?? found.openEdges;
  const nonManifoldEdges = found.inputNonManifoldEdges ?? found.nonManifoldEdges;
  // The loops repair filled are the holes; loops through a vertex shared by two holes are counted too.
  const holes = repaired.changes.holesFilled + repaired.tangledHoles;
  return {
    name,
    triangles: input.indices.length / 3,
    vertices: input.vertices.length / 3,
    volume: round(repaired.volume),
    area: round(surfaceArea(repaired.mesh)),
    bbox: bboxFacts(meshBounds(input)),
    shells: repaired.shells,
    openEdges,
    holes,
    nonManifoldEdges,
    flippedNormals: found.flippedTriangles,
    invertedShells: found.invertedShells,
    degenerateFaces: found.degenerateTriangles,
    duplicateFaces: found.duplicateTriangles,
    needsRepair:
      openEdges + nonManifoldEdges + found.flippedTriangles + found.degenerateTriangles + found.duplicateTriangles > 0 || found.weldedVertices > 0,
  };
}

function sumFacts(objects: readonly ObjectReport[]): Omit<MeshFacts, 'bbox'> {
  const sum = (key: keyof MeshFacts): number => objects.reduce((total, o) => total + (o[key] as number), 0);
  return {
    triangles: sum('triangles'),
    vertices: sum('vertices'),
    volume: round(sum('volume')),
    area: round(sum('area')),
    shells: sum('shells'),
    openEdges: sum('openEdges'),
    holes: sum('holes'),
    nonManifoldEdges: sum('nonManifoldEdges'),
    flippedNormals: sum('flippedNormals'),
    invertedShells: sum('invertedShells'),
    degenerateFaces: sum('degenerateFaces'),
    duplicateFaces: sum('duplicateFaces'),
    needsRepair: objects.some((o) => o.needsRepair),
  };
}

function sumChanges(repairs: readonly MeshRepair[]): MeshRepair['changes'] {
  const total = { ...repairs[0].changes };
  for (const r of repairs.slice(1)) {
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += r.changes[key];
  }
  return total;
}

export interface AnalysedModel {
  report: ModelReport;
  repairs: MeshRepair[];
}

export function analyseModel(model: MeshModel): AnalysedModel {
  const repairs = model.objects.map((o) => repairForOutput(o.mesh));
  const objects = model.objects.map((o, k) => objectFacts(o.name, o.mesh, repairs[k]));
  const box = model.objects
    .map((o) => meshBounds(o.mesh))
    .reduce((a, b) => ({
      min: a.min.map((v, k) => Math.min(v, b.min[k])) as BBox3['min'],
      max: a.max.map((v, k) => Math.max(v, b.max[k])) as BBox3['max'],
    }));
  return {
    report: {
      format: model.sourceFormat,
      ...sumFacts(objects),
      bbox: bboxFacts(box),
      objects,
      repair: sumChanges(repairs),
      warnings: model.warnings,
    },
    repairs,
  };
}

/** The small report for the X-Mesh-Report header: totals only, no names (header values are ASCII). */
export function headerReport(report: ModelReport): string {
  const { objects, warnings, format, ...totals } = report;
  return JSON.stringify({ format, objects: objects.length, ...totals, warnings: warnings.length });
}
