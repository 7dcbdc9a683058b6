/**
 * The geometry tasks of a slice, as functions of plain data: run in worker threads by the pool,
 * or in-process for small jobs where starting threads would cost more than the work.
 */
import { hashExPolygons } from '../geometry/hash.js';
import { RegionCache } from '../regions/cache.js';
import type { HashedLayer } from '../regions/surfaces.js';
import { buildEdgeTable, type SliceEdges } from '../mesh/edges.js';
import { ChainScratch, chainLoops } from '../layers/loops.js';
import { loopShapeHash } from '../layers/loop-shape.js';
import { repeatedSections, sliceMesh } from '../layers/slice-mesh.js';
import { loopsToIslands, type OutlineOptions } from '../layers/slices.js';
import type { IndexedMesh } from '../mesh/types.js';
import { bridgeBaseDepth } from '../regions/internal-bridges.js';
import { buildLayer, type ObjectLayer } from '../regions/layer.js';
import type { RegionParams } from '../regions/params.js';
import { hashPath } from '../geometry/hash.js';
import { encodeLayer, relocateLayer } from '../toolpath/codec.js';
import { F64Reader, F64Writer } from './f64-stream.js';

export interface SetupArgs {
  meshes: IndexedMesh[];
  sliceZs: Float64Array;
  printZs: Float64Array;
  heights: Float64Array;
  outline: OutlineOptions;
  regions: RegionParams;
  /**
   * Edge ids of the meshes, in shared memory: found once, by repair, rather than by every thread
   * that cuts the mesh (each worker would build and hold its own table).
   */
  edges?: SliceEdges[];
}

export interface SliceArgs {
  object: number;
  first: number;
  last: number;
}

export interface SliceOutput {
  first: number;
  /** One encoded ExPolygon list per layer. */
  layers: Float64Array[];
  openChains: number;
  largestGap: number;
}

export interface LayersArgs {
  first: number;
  last: number;
  objects: {
    object: number;
    filament: number;
    /** Index of the first encoded layer in `slices`. */
    base: number;
    /** Encoded ExPolygon lists of layers base..base+n-1. */
    slices: Float64Array[];
    /** The object's last layer with anything in it. */
    top: number;
  }[];
  /** Support areas per layer of the chunk (encoded base and interface), when supports are on. */
  support: { base: Float64Array; iface: Float64Array }[] | null;
}

interface TaskMap {
  setup: [SetupArgs, true];
  slice: [SliceArgs, SliceOutput];
  layers: [LayersArgs, Float64Array[]];
}

export type TaskName = keyof TaskMap;
export type TaskArgs<N extends TaskName> = TaskMap[N][0];
export type TaskResult<N extends TaskName> = TaskMap[N][1];

interface State {
  setup: SetupArgs;
  edges: (SliceEdges | null)[];
  scratch: (ChainScratch | null)[];
  /** Per object: planes whose section is that of the plane below (`repeatedSections`). */
  repeated: (Uint8Array | null)[];
}

export type TaskSet = { [N in TaskName]: (args: TaskArgs<N>) => TaskResult<N> };

/** Fill patterns whose lines follow the height (not only the layer's parity): their layers never repeat. */
const FOLLOWS_Z = new Set(['gyroid']);

/**
 * Everything a layer's toolpaths depend on but its index and height, when that is all: the
 * outlines of its objects and of their shell neighbourhoods (by hash; the neighbourhoods of the
 * layers an internal bridge would rest on included), its support areas, its height, the heights
 * under it and the parity of its index (rectilinear patterns turn every layer). A prismatic part
 * repeats the same key layer after layer (the corpus's rigid3d platform: 700 of 850 layers), and
 * those layers are copies of the one two below. Null where the layer must be built: the first
 * layer (its own widths and speeds) and patterns that follow the height.
 */
function layerKey(
  index: number,
  height: number,
  bridgeBase: number[],
  objects: readonly ObjectLayer[],
  support: { base: Float64Array; iface: Float64Array } | undefined,
  p: RegionParams,
): string | null {
  if (index === 0 || [p.sparsePattern, p.solidPattern, p.topPattern, p.bottomPattern].some((pattern) => FOLLOWS_Z.has(pattern))) return null;
  // A base reaching down to the first layer rests on that layer's own classification.
  const base = `${bridgeBase.join('/')}${index === bridgeBase.length ? '*' : ''}`;
  let key = `${height}:${index % 2}:${base}:${support ? `${hashPath(support.base)}/${hashPath(support.iface)}` : '-'}`;
  for (const o of objects) {
    key += `|${o.object}:${o.filament}:${o.current.hash}^`;
    for (const l of o.above) key += `${l.hash},`;
    key += 'v';
    for (const l of o.below) key += `${l.hash},`;
  }
  return key;
}

/** A set of task functions with their own job state (one per worker thread, or one per in-process slice). */
export function createTasks(): TaskSet {
  let state: State | null = null;
  const regionCache = new RegionCache();
  /*
   * A layer's outline repeated on the layers above it is one buffer (the slice task hands the same
   * one on), and consecutive chunks overlap by their shell neighbourhoods: each buffer is decoded
   * and hashed once while it keeps coming, not once per chunk and layer (the rigid3d platform:
   * 146 decodings instead of 1,802). The same islands then also find their
   * memoised hashes and boxes. Only the previous chunk's are kept, so memory holds two chunks' worth.
   */
  let previousOutlines = new Map<Float64Array, HashedLayer>();
  const current = (): State => {
    if (!state) throw new Error('slicing task run before setup');
    return state;
  };
  return {
    setup(args) {
      state = { setup: args, edges: args.meshes.map(() => null), scratch: args.meshes.map(() => null), repeated: args.meshes.map(() => null) };
      return true;
    },

    slice({ object, first, last }) {
      const s = current();
      const mesh = s.setup.meshes[object];
      // Built for an object's first chunk, kept for its next ones.
      const edges = s.edges[object] ?? s.setup.edges?.[object] ?? buildEdgeTable(mesh.indices);
      const scratch = s.scratch[object] ?? new ChainScratch(edges.count);
      const repeated = s.repeated[object] ?? repeatedSections(mesh, s.setup.sliceZs);
      s.edges[object] = edges;
      s.scratch[object] = scratch;
      s.repeated[object] = repeated;
      // A plane where the mesh is a prism since the plane below is not even cut, when that plane is
      // in this chunk and is not the first layer (whose islands are compensated for elephant foot).
      const skip = repeated.map((r, p) => (r && p > first && p > 1 ? 1 : 0));
      const segments = sliceMesh(mesh, edges, s.setup.sliceZs, first, last, skip);
      const layers: Float64Array[] = [];
      let openChains = 0;
      let largestGap = 0;
      // A plane that cuts the outline the plane below cut has its islands (not after the first
      // layer, whose islands are compensated for elephant foot); the buffer is shared, never written.
      let below: { layer: number; shape: number; open: boolean; encoded: Float64Array } | null = null;
      segments.forEach((uncut, k) => {
        const layer = first + k;
        if (skip[layer] && below && below.layer === layer - 1 && !below.open) {
          below = { ...below, layer };
          layers.push(below.encoded);
          return;
        }
        // A skipped plane after an open section is cut after all: gaps are closed per plane.
        const seg = skip[layer] ? sliceMesh(mesh, edges, s.setup.sliceZs, layer, layer + 1)[0] : uncut;
        const r = chainLoops(seg, scratch);
        openChains += r.openChains;
        largestGap = Math.max(largestGap, r.largestGap);
        const shape = loopShapeHash(r.loops);
        const open = r.openChains > 0;
        if (below && below.layer > 0 && below.shape === shape && below.open === open) {
          below = { ...below, layer };
          layers.push(below.encoded);
          return;
        }
        const islands = loopsToIslands(r.loops, s.setup.outline, layer === 0, open);
        const w = new F64Writer();
        w.exPolygons(islands);
        below = { layer, shape, open, encoded: w.finish() };
        layers.push(below.encoded);
      });
      return { first, layers, openChains, largestGap };
    },

    layers({ first, last, objects, support }) {
      const s = current();
      const { topLayers, bottomLayers } = s.setup.regions;
      const outlines = new Map<Float64Array, HashedLayer>();
      const decodeOutline = (buf: Float64Array): HashedLayer => {
        let layer = outlines.get(buf) ?? previousOutlines.get(buf);
        if (!layer) {
          const islands = new F64Reader(buf).exPolygons();
          layer = { islands, hash: hashExPolygons(islands) };
        }
        outlines.set(buf, layer);
        return layer;
      };
      const decoded = objects.map((o) => ({ ...o, layers: o.slices.map(decodeOutline) }));
      previousOutlines = outlines;
      const empty: HashedLayer = { islands: [], hash: hashExPolygons([]) };
      const out: Float64Array[] = [];
      for (let i = first; i < last; i++) {
        const bridgeBase = Array.from(
          { length: bridgeBaseDepth(i, s.setup.printZs, s.setup.heights, s.setup.regions) },
          (_, k) => s.setup.heights[i - k - 1],
        );
        const objs: ObjectLayer[] = decoded.map((o) => {
          const at = (layer: number): HashedLayer => o.layers[layer - o.base] ?? empty;
          const above: HashedLayer[] = [];
          for (let k = 1; k <= topLayers && i + k <= o.top; k++) above.push(at(i + k));
          const below: HashedLayer[] = [];
          for (let k = 1; k <= Math.max(bottomLayers, 1) + bridgeBase.length && i - k >= 0; k++) below.push(at(i - k));
          return { object: o.object, filament: o.filament, current: at(i), above, below };
        });
        const sup = support?.[i - first];
        const build = () => {
          const supportLayer = sup ? { base: new F64Reader(sup.base).exPolygons(), iface: new F64Reader(sup.iface).exPolygons() } : null;
          return encodeLayer(
            buildLayer(
              { index: i, printZ: s.setup.printZs[i], height: s.setup.heights[i], objects: objs, support: supportLayer, bridgeBase },
              s.setup.regions,
              regionCache,
            ),
          );
        };
        const key = layerKey(i, s.setup.heights[i], bridgeBase, objs, sup, s.setup.regions);
        out.push(key === null ? build() : relocateLayer(regionCache.layerFor(key, i, build), i, s.setup.printZs[i]));
      }
      return out;
    },
  };
}
