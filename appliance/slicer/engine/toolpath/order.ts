/** The order a layer prints in: objects nearest first from the nozzle, then their islands nearest first. */
import type { IslandPaths } from './types.js';

function dist2(ax: number, ay: number, bx: number, by: number): number {
  return (ax - bx) ** 2 + (ay - by) ** 2;
}

function distToStart(isl: IslandPaths, x: number, y: number): number {
  const first = isl.walls[0]?.points ?? isl.infill[0]?.points ?? isl.outline.contour;
  return dist2(first[0], first[1], x, y);
}

/** Islands grouped by object (an object prints whole before the next, for labels), objects nearest first. */
export function orderObjects(islands: IslandPaths[], x: number, y: number): IslandPaths[][] {
  // Most layers are of one object: its islands are the one group, in their order.
  if (islands.every((isl) => isl.object === islands[0].object)) return islands.length > 0 ? [islands] : [];
  const groups = new Map<number, IslandPaths[]>();
  for (const isl of islands) {
    const g = groups.get(isl.object);
    if (g) g.push(isl);
    else groups.set(isl.object, [isl]);
  }
  const rest = [...groups.values()];
  const ordered: IslandPaths[][] = [];
  let px = x;
  let py = y;
  while (rest.length) {
    let best = 0;
    let bestD = Infinity;
    for (let k = 0; k < rest.length; k++) {
      for (const isl of rest[k]) {
        const d = distToStart(isl, px, py);
        if (d < bestD) {
          bestD = d;
          best = k;
        }
      }
    }
    const [g] = rest.splice(best, 1);
    ordered.push(g);
    const last = g[g.length - 1].outline.contour;
    px = last[0];
    py = last[1];
  }
  return ordered;
}

/** An object's islands, nearest first from (x, y), each next one nearest to where the last began. */
export function orderIslands(group: IslandPaths[], x: number, y: number): IslandPaths[] {
  const rest = group.slice();
  const ordered: IslandPaths[] = [];
  let px = x;
  let py = y;
  while (rest.length) {
    let best = 0;
    let bestD = Infinity;
    for (let k = 0; k < rest.length; k++) {
      const d = distToStart(rest[k], px, py);
      if (d < bestD) {
        bestD = d;
        best = k;
      }
    }
    const [isl] = rest.splice(best, 1);
    ordered.push(isl);
    px = isl.outline.contour[0];
    py = isl.outline.contour[1];
  }
  return ordered;
}
