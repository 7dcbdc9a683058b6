/** Greedy nearest-first ordering of open paths, each printed from whichever end is nearer. */
import { emptyBBox, extendBBox, reversed } from '../../geometry/polygon.js';
import { NearestGrid } from './nearest.js';

/** Paths in print order starting near (x, y); a path is reversed when its end is the nearer end. */
export function orderNearest(paths: readonly Float64Array[], x: number, y: number): Float64Array[] {
  if (paths.length < 2) {
    if (paths.length === 1 && nearerEnd(paths[0], x, y) === 1) return [reversed(paths[0])];
    return paths.slice();
  }
  const box = emptyBBox();
  for (const p of paths) extendBBox(box, endsOf(p));
  const grid = new NearestGrid(box, paths.length * 2);
  paths.forEach((p, i) => {
    grid.insert(i * 2, p[0], p[1]);
    grid.insert(i * 2 + 1, p[p.length - 2], p[p.length - 1]);
  });
  const out: Float64Array[] = [];
  let px = x;
  let py = y;
  while (grid.size > 0) {
    const id = grid.nearest(px, py);
    const i = id >> 1;
    grid.remove(i * 2);
    grid.remove(i * 2 + 1);
    const path = (id & 1) === 1 ? reversed(paths[i]) : paths[i];
    out.push(path);
    px = path[path.length - 2];
    py = path[path.length - 1];
  }
  return out;
}

function endsOf(p: Float64Array): Float64Array {
  return Float64Array.of(p[0], p[1], p[p.length - 2], p[p.length - 1]);
}

function nearerEnd(p: Float64Array, x: number, y: number): 0 | 1 {
  const d0 = (p[0] - x) ** 2 + (p[1] - y) ** 2;
  const d1 = (p[p.length - 2] - x) ** 2 + (p[p.length - 1] - y) ** 2;
  return d1 < d0 ? 1 : 0;
}
