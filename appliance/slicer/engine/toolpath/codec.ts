/** Encodes a layer's toolpaths into one Float64Array (and back) for the trip from a worker. */
import { F64Reader, F64Writer } from '../workers/f64-stream.js';
import { EXTRUSION_ROLES, type Extrusion, type IslandPaths, type LayerPaths } from './types.js';

function writeExtrusions(w: F64Writer, list: readonly Extrusion[]): void {
  w.num(list.length);
  for (const e of list) {
    w.num(EXTRUSION_ROLES.indexOf(e.role));
    w.num(e.loop ? 1 : 0);
    w.num(e.width);
    w.num(e.height);
    w.num(e.mm3PerMm);
    w.array(e.points);
  }
}

function readExtrusions(r: F64Reader): Extrusion[] {
  const out: Extrusion[] = new Array(r.num());
  for (let k = 0; k < out.length; k++) {
    const role = EXTRUSION_ROLES[r.num()];
    const loop = r.num() === 1;
    const width = r.num();
    const height = r.num();
    const mm3PerMm = r.num();
    out[k] = { role, loop, width, height, mm3PerMm, points: r.array() };
  }
  return out;
}

export function encodeLayer(layer: LayerPaths): Float64Array {
  const w = new F64Writer();
  w.num(layer.index);
  w.num(layer.printZ);
  w.num(layer.height);
  w.num(layer.hasBridges ? 1 : 0);
  w.num(layer.islands.length);
  for (const isl of layer.islands) {
    w.num(isl.object);
    w.num(isl.filament);
    w.exPolygons([isl.outline]);
    writeExtrusions(w, isl.walls);
    writeExtrusions(w, isl.infill);
  }
  writeExtrusions(w, layer.support);
  writeExtrusions(w, layer.adhesion);
  return w.finish();
}

/** A copy of an encoded layer moved to another index and height (a repeat of that layer). */
export function relocateLayer(buf: Float64Array, index: number, printZ: number): Float64Array {
  const out = buf.slice();
  out[0] = index;
  out[1] = printZ;
  return out;
}

export function decodeLayer(buf: Float64Array): LayerPaths {
  const r = new F64Reader(buf);
  const index = r.num();
  const printZ = r.num();
  const height = r.num();
  const hasBridges = r.num() === 1;
  const islands: IslandPaths[] = new Array(r.num());
  for (let k = 0; k < islands.length; k++) {
    const object = r.num();
    const filament = r.num();
    const [outline] = r.exPolygons();
    const walls = readExtrusions(r);
    const infill = readExtrusions(r);
    islands[k] = { object, filament, outline, walls, infill };
  }
  const support = readExtrusions(r);
  const adhesion = readExtrusions(r);
  return { index, printZ, height, islands, support, adhesion, hasBridges };
}
