/**
 * The straight-line patterns: which directions a layer uses, how far apart the lines are, and
 * the pieces of one island they give.
 */
import type { Boundary } from './boundary.js';
import { hatch, type RowPlacement } from './hatch.js';
import { PiecesBuilder, type Pieces } from './pieces.js';
import type { FillPattern } from './types.js';

export type LinearPattern = Exclude<FillPattern, 'gyroid' | 'concentric'>;

const DEG = Math.PI / 180;

/**
 * Line directions (radians) of one layer. Rectilinear-type patterns turn 90° every other layer
 * (so layers n and n + 2 match); `alignedrectilinear` keeps its angle; grid and triangles draw
 * all their directions on every layer.
 */
export function layerDirections(pattern: LinearPattern, angleDeg: number, layerIndex: number): number[] {
  switch (pattern) {
    case 'alignedrectilinear':
      return [angleDeg * DEG];
    case 'grid':
      return [angleDeg * DEG, (angleDeg + 90) * DEG];
    case 'triangles':
      return [angleDeg * DEG, (angleDeg + 60) * DEG, (angleDeg + 120) * DEG];
    case 'zig-zag':
    case 'line':
    case 'monotonic':
    case 'monotonicline':
      return [(angleDeg + (Math.abs(layerIndex) % 2 === 1 ? 90 : 0)) * DEG];
  }
}

/** Whether a pattern's lines may be joined along the boundary at all. */
export function joinsLines(pattern: FillPattern): boolean {
  return pattern !== 'line' && pattern !== 'monotonicline' && pattern !== 'concentric';
}

/**
 * Row placement for a layer. Every direction of a pattern prints at the same spacing, so n
 * directions at spacing / density × n give the requested density. A solid single-direction
 * fill fits its rows to each island instead of the global grid.
 */
export function rowPlacement(directions: number, spacing: number, density: number): RowPlacement {
  const step = (spacing * directions) / density;
  return { kind: density >= 1 && directions === 1 ? 'fit' : 'grid', step };
}

/**
 * One builder for every island (hatchIsland never runs inside itself): a builder per island made
 * its arrays (a buffer outside the heap and a view per field) island after island, 11 ms of
 * rigid3d's main thread.
 */
const islandPieces = new PiecesBuilder();

/**
 * The pieces of one island for every direction; family i is direction i. They are valid until the
 * next call, which reuses their storage: the fills link them into chains of their own first.
 */
export function hatchIsland(boundary: Boundary, directions: readonly number[], placement: RowPlacement): Pieces {
  islandPieces.clear();
  for (let family = 0; family < directions.length; family++) hatch(boundary, directions[family], placement, family, islandPieces);
  return islandPieces.finish();
}
