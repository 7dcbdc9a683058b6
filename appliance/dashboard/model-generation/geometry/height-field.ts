/**
 * A closed solid from a grid of thicknesses, built directly as an indexed mesh (a photo's worth
 * of booleans would take minutes): the top surface through the grid points, a smooth back, and
 * walls joining them along the edges. The back has vertices only where the walls need them (the
 * front and rear edges, and every row of the two side edges); each strip of the back between two
 * columns is a flat quadrilateral, triangulated by zipping its two edges, so no triangle overlaps
 * another whatever the thicknesses.
 *
 * The grid is laid out in (x, y, t): columns along x, rows along y, thickness t. A flat piece puts
 * t on z; a standing one puts y on z and t on -y (its back faces +y); an arc wraps x around a
 * cylinder whose axis is z (y becomes the height, t points out), and a full turn joins the last
 * column to the first (no side walls). Every mapping keeps the orientation of (x, y, t), so one
 * set of windings serves them all.
 */
import type { SolidMesh } from './manifold.js';

export interface HeightGrid {
  columns: number;
  rows: number;
  /** Thickness at column i, row j (row 0 at y = 0): heights[j * columns + i], every one > 0 (mm). */
  heights: Float32Array;
  /** Distance between neighbouring columns and rows (mm). */
  spacingX: number;
  spacingY: number;
}

export type HeightSurface = { kind: 'flat' } | { kind: 'standing' } | { kind: 'arc'; radius: number; fullTurn: boolean };

export function heightFieldMesh(grid: HeightGrid, surface: HeightSurface): SolidMesh {
  const { columns: C, rows: R, heights } = grid;
  if (C < 2 || R < 2) throw new Error('a height field needs at least 2 × 2 points');
  const ring = surface.kind === 'arc' && surface.fullTurn;
  const place = (x: number, y: number, t: number): [number, number, number] => {
    if (surface.kind === 'flat') return [x, y, t];
    if (surface.kind === 'standing') return [x, -t, y];
    const angle = x / surface.radius;
    const r = surface.radius + t;
    return [r * Math.cos(angle), r * Math.sin(angle), y];
  };
  const coordinates: number[] = [];
  const addVertex = (i: number, j: number, t: number): number => {
    coordinates.push(...place(i * grid.spacingX, j * grid.spacingY, t));
    return coordinates.length / 3 - 1;
  };
  for (let j = 0; j < R; j++) for (let i = 0; i < C; i++) addVertex(i, j, heights[j * C + i]);
  const top = (i: number, j: number) => j * C + (i % C);
  const backVertices = new Map<number, number>();
  const back = (i: number, j: number): number => {
    const key = j * C + (i % C);
    let index = backVertices.get(key);
    if (index === undefined) {
      index = addVertex(i % C, j, 0);
      backVertices.set(key, index);
    }
    return index;
  };

  const triangles: number[] = [];
  /** A quadrilateral given counter-clockwise as seen from outside. */
  const quad = (a: number, b: number, c: number, d: number) => triangles.push(a, b, c, a, c, d);
  const strips = ring ? C : C - 1;
  for (let j = 0; j + 1 < R; j++) for (let i = 0; i < strips; i++) quad(top(i, j), top(i + 1, j), top(i + 1, j + 1), top(i, j + 1));
  for (let i = 0; i < strips; i++) {
    quad(back(i, 0), back(i + 1, 0), top(i + 1, 0), top(i, 0));
    quad(back(i + 1, R - 1), back(i, R - 1), top(i, R - 1), top(i + 1, R - 1));
  }
  if (!ring) {
    for (let j = 0; j + 1 < R; j++) {
      quad(back(0, j + 1), back(0, j), top(0, j), top(0, j + 1));
      quad(back(C - 1, j), back(C - 1, j + 1), top(C - 1, j + 1), top(C - 1, j));
    }
  }
  const edgeRows = (i: number): number[] => {
    const side = !ring && (i === 0 || i === C - 1);
    return side ? Array.from({ length: R }, (_, j) => j) : [0, R - 1];
  };
  for (let i = 0; i < strips; i++)
    zipBackStrip(
      triangles,
      edgeRows(i),
      edgeRows(i + 1),
      (j) => back(i, j),
      (j) => back(i + 1, j),
    );
  return { vertices: Float32Array.from(coordinates), indices: Uint32Array.from(triangles) };
}

/**
 * Triangulates the back strip between two columns from the rows each edge has vertices on (both
 * ascending, both from 0 to the last row), facing the back (-t).
 */
function zipBackStrip(
  triangles: number[],
  left: number[],
  right: number[],
  leftVertex: (j: number) => number,
  rightVertex: (j: number) => number,
): void {
  let a = 0;
  let b = 0;
  while (a + 1 < left.length || b + 1 < right.length) {
    const advanceLeft = b + 1 >= right.length || (a + 1 < left.length && left[a + 1] <= right[b + 1]);
    if (advanceLeft) {
      // Seen from the back, (left a, left a+1, right b) runs counter-clockwise.
      triangles.push(leftVertex(left[a]), leftVertex(left[a + 1]), rightVertex(right[b]));
      a++;
    } else {
      triangles.push(leftVertex(left[a]), rightVertex(right[b + 1]), rightVertex(right[b]));
      b++;
    }
  }
}
