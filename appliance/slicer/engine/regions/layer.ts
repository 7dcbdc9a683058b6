/**
 * Everything one layer prints for its objects: walls per island, the island's fill area split
 * into surfaces, and the infill of each. Pure function of its inputs, run in worker threads.
 */
import { differenceEx, offsetEx, simplifyEx } from '../geometry/clipper.js';
import type { ExPolygon } from '../geometry/types.js';
import type { Extrusion, ExtrusionRole, IslandPaths, LayerPaths } from '../toolpath/types.js';
import { bridgeFlow, crossSection, spacingOf, widthFor, type BridgeFlow } from './flow.js';
import { bridgeAngle, fill, type FillPattern } from './infill/index.js';
import type { RegionParams } from './params.js';
import { bridgeOverInfill } from './internal-bridges.js';
import { buildWalls, centreLine, type IslandWalls, type WallSupport } from './perimeters.js';
import { buildVariableWalls } from './variable-walls.js';
import type { SupportLayer } from './support.js';
import { classifyFill, surfaceMasks, type FillRegions, type HashedLayer, type RegionsMemo, type VerticalShellRule } from './surfaces.js';
import { RegionCache } from './cache.js';
import { skinGapFill } from './skin-gaps.js';
import { insetArea } from './rectangle-inset.js';
import { hashExPolygon, hashExPolygons } from '../geometry/hash.js';

export interface ObjectLayer {
  object: number;
  filament: number;
  current: HashedLayer;
  /** The object's next layers up, nearest first (ends early past its top). */
  above: HashedLayer[];
  /**
   * The object's layers below, nearest first: the bottom shell's and, for the layers an internal
   * bridge rests on, theirs too.
   */
  below: HashedLayer[];
}

export interface LayerInput {
  index: number;
  printZ: number;
  height: number;
  objects: ObjectLayer[];
  support: SupportLayer | null;
  /** Heights of the layers under this one that an internal bridge must find sparse infill on, nearest first. */
  bridgeBase: number[];
}

/** How far bridges and top surfaces reach into their anchors: PrusaSlicer's and OrcaSlicer's external infill margin (mm). */
const EXTERNAL_MARGIN = 3;

/**
 * The outlines the surface masks are found from are simplified to this (mm). Where a mask ends is a
 * matter of tenths of a millimetre (tops and bridges reach 3 mm into their anchors, shells half a
 * millimetre, slivers under 0.1 mm are dropped, and every mask is clipped by the fill area found
 * from the full outline), but the booleans that find the masks cost in proportion to the points,
 * and a scanned or finely tessellated part keeps a point every few hundredths of a millimetre (the
 * corpus's bearing: half the layer work went to the masks at full resolution; 0.1 instead of
 * 0.05 mm took another fifth off them).
 */
const MASK_TOLERANCE = 0.1;

/** Patterns whose lines turn every layer: their cached lines are only valid for layers of the same parity. */
const ALTERNATING: ReadonlySet<FillPattern> = new Set(['zig-zag', 'line', 'monotonic', 'monotonicline']);

/** An island with its walls and the regions its fill area splits into. */
interface ClassifiedIsland {
  island: ExPolygon;
  walls: IslandWalls;
  regions: FillRegions;
}

/**
 * The walls and fill regions of an object's islands on a layer: what its own toolpaths come from,
 * and, for the layer above, where its sparse infill lies. Memoised by what it depends on (the
 * outlines of the layer and of its shell neighbours, its height), so the layer above finds it.
 */
function classifyObject(obj: ObjectLayer, first: boolean, h: number, p: RegionParams, cache: RegionCache, objects: number): ClassifiedIsland[] {
  const above = obj.above.slice(0, p.topLayers);
  const below = obj.below.slice(0, Math.max(p.bottomLayers, 1));
  const key = `${first}:${h}:${obj.current.hash}^${above.map((l) => l.hash).join(',')}v${below.map((l) => l.hash).join(',')}`;
  return cache.classificationFor(key, objects, () => {
    const coarse = (layer: HashedLayer): HashedLayer => ({
      hash: layer.hash,
      islands: cache.outlineGeometryFor(`coarse:${layer.hash}`, () => simplifyEx(layer.islands, MASK_TOLERANCE)),
    });
    const verticalShells = verticalShellRule(p, cache, h);
    const masks = surfaceMasks(coarse(obj.current), above.map(coarse), below.map(coarse), p.topLayers, p.bottomLayers, first ? null : verticalShells);
    const outerWidth = widthFor('outer-wall', p.widths, first);
    const innerWidth = widthFor('inner-wall', p.widths, first);
    const belowHashes = new Set(below[0]?.islands.map((ex) => hashExPolygon(ex)) ?? []);
    let grownBelow: ExPolygon[] | undefined;
    const support: WallSupport | null =
      !first && p.detectOverhangWalls && below.length
        ? { islands: below[0].islands, grown: () => (grownBelow ??= offsetEx(below[0].islands, outerWidth / 2)) }
        : null;
    // The other islands of a layer where one changes are classified again from the same area and
    // masks; an island alone on its layer is not (its masks change with the classification key).
    const regionsMemo: RegionsMemo | undefined = obj.current.islands.length > 1 ? (key, compute) => cache.fillRegionsFor(key, compute) : undefined;
    return obj.current.islands.map((island) => {
      const islandHash = hashExPolygon(island);
      const wallParams = {
        loops: p.wallLoops,
        outerWidth,
        innerWidth,
        height: h,
        sequence: p.wallSequence,
        detectThinWalls: p.detectThinWalls,
        nozzle: p.nozzle,
      };
      const build = p.wallGenerator === 'arachne' ? buildVariableWalls : buildWalls;
      // An island that rests on an identical one cannot overhang: its walls depend on nothing else.
      const walls = belowHashes.has(islandHash)
        ? cache.wallsFor(`${islandHash}:${h}:${first}`, () => build(island, { ...wallParams, supportedBy: null }))
        : build(island, { ...wallParams, supportedBy: support });
      const regions = classifyFill(
        walls.innerEdge,
        masks,
        {
          firstLayer: first,
          minSparseArea: p.minSparseArea,
          bridgeAnchor: EXTERNAL_MARGIN,
          topMargin: EXTERNAL_MARGIN,
          shellMargin: verticalShells?.mode === 'ensure_all' ? 0 : EXTERNAL_MARGIN,
          solidInfill: p.density >= 0.999,
          minSolidWidth: spacingOf(widthFor('solid-infill', p.widths, first), h),
        },
        regionsMemo,
      );
      return { island, walls, regions };
    });
  });
}

/** The object's layer `k` layers under `obj`'s, as its own ObjectLayer (from the lists `obj` carries). */
function objectLayerUnder(obj: ObjectLayer, k: number, p: RegionParams): ObjectLayer {
  const up = [...obj.below.slice(0, k - 1).reverse(), obj.current, ...obj.above];
  return { object: obj.object, filament: obj.filament, current: obj.below[k - 1], above: up.slice(0, p.topLayers), below: obj.below.slice(k) };
}

export function buildLayer(input: LayerInput, p: RegionParams, cache: RegionCache = new RegionCache()): LayerPaths {
  const first = input.index === 0;
  const h = input.height;
  const islands: IslandPaths[] = [];
  let hasBridges = false;
  cache.at(input.index);
  const flow = bridgeFlow(p.nozzle, p.bridgeFlowRatio, h, p.thickBridges);
  for (const obj of input.objects) {
    if (obj.current.islands.length === 0) continue;
    let beneath: ExPolygon[][] | undefined;
    // The sparse areas under this layer, found (or taken from the memo) only when an island has internal solid infill.
    const sparseBeneath = () =>
      (beneath ??= input.bridgeBase.map((height, j) => {
        const under = objectLayerUnder(obj, j + 1, p);
        return classifyObject(under, input.index - j - 1 === 0, height, p, cache, input.objects.length).flatMap((c) => c.regions.sparse);
      }));
    for (const { island, walls, regions } of classifyObject(obj, first, h, p, cache, input.objects.length)) {
      const infill: Extrusion[] = [];
      const add = (
        area: ExPolygon[],
        role: ExtrusionRole,
        pattern: FillPattern,
        density: number,
        angle: number,
        overlap: number,
        bridged?: BridgeFlow,
      ) => {
        if (area.length === 0) return;
        const width = bridged?.width ?? widthFor(role, p.widths, first);
        const spacing = bridged?.spacing ?? spacingOf(width, h);
        const mm3PerMm = bridged?.mm3PerMm ?? crossSection(width, h);
        const compute = () => {
          const inset = insetArea(area, (0.5 - overlap) * spacing);
          const lines = inset.length
            ? fill({ area: inset, pattern, density, spacing, angle, layerIndex: input.index, z: input.printZ, role, width, height: h, mm3PerMm })
            : [];
          // A top skin's lines leave crescents along curved edges and triangles in corners: gap-filled.
          if (lines.length && role === 'top-surface') return [...lines, ...skinGapFill(area, lines, width, h)];
          if (lines.length || density < 1) return lines;
          // A solid area too small for a single fill line still must not stay open (a pin's core, the
          // top of a spire): one centre line, as gap fill.
          return area.map((piece) => centreLine(piece, width, h, 'gap-fill')).filter((e): e is Extrusion => e !== null);
        };
        if (pattern === 'gyroid') infill.push(...compute());
        else {
          const phase = ALTERNATING.has(pattern) ? input.index % 2 : 0;
          infill.push(...cache.fillFor(`${role}:${pattern}:${density}:${angle}:${phase}:${h}:${hashExPolygons(area)}`, compute));
        }
      };
      if (regions.bridge.length) {
        hasBridges = true;
        const below = obj.below[0]?.islands ?? [];
        for (const bridge of regions.bridge) {
          const inset = insetArea([bridge], (0.5 - p.surfaceOverlap) * flow.spacing);
          if (inset.length === 0) continue;
          const angle = p.bridgeAngle ?? bridgeAngle(bridge, below);
          infill.push(
            ...fill({
              area: inset,
              pattern: 'alignedrectilinear',
              density: 1,
              spacing: flow.spacing,
              angle,
              layerIndex: input.index,
              z: input.printZ,
              role: 'bridge',
              width: flow.width,
              height: h,
              mm3PerMm: flow.mm3PerMm,
            }),
          );
        }
      }
      // No base on the first layer nor at 100 % infill (bridgeBaseDepth): nothing is bridged there.
      const internal = bridgeOverInfill(regions.solid, sparseBeneath, flow.width);
      if (internal.bridge.length) hasBridges = true;
      add(internal.bridge, 'bridge', p.solidPattern, 1, p.solidAngle, p.infillOverlap, flow);
      add(regions.bottom, first ? 'bottom-surface' : 'solid-infill', p.bottomPattern, 1, p.solidAngle, p.surfaceOverlap);
      add(regions.sparse, 'sparse-infill', p.sparsePattern, p.density, p.infillAngle, p.infillOverlap);
      add(internal.solid, 'solid-infill', p.solidPattern, 1, p.solidAngle, p.infillOverlap);
      add(regions.top, 'top-surface', p.topPattern, 1, p.solidAngle, p.surfaceOverlap);
      islands.push({ object: obj.object, filament: obj.filament, outline: island, walls: walls.walls, infill });
    }
  }
  const support = input.support ? supportPaths(input.support, input, p) : [];
  return { index: input.index, printZ: input.printZ, height: h, islands, support, adhesion: [], hasBridges };
}

/** The vertical shell mode of the job with its per-layer geometry memoised by outline hash, or null when off. */
function verticalShellRule(p: RegionParams, cache: RegionCache, height: number): VerticalShellRule | null {
  if (p.verticalShells === 'none' || p.wallThickness <= 0) return null;
  const inner = (layer: HashedLayer) => cache.outlineGeometryFor(`inner:${layer.hash}`, () => offsetEx(layer.islands, -p.wallThickness));
  return {
    mode: p.verticalShells,
    shellReach: 1.05 * spacingOf(p.widths.solidInfill, height),
    inner,
    wallRing: (layer) => cache.outlineGeometryFor(`ring:${layer.hash}`, () => differenceEx(layer.islands, inner(layer))),
  };
}

/** Support lines: the base sparse at the configured gap, the interface dense and across it. */
function supportPaths(s: SupportLayer, input: LayerInput, p: RegionParams): Extrusion[] {
  const h = input.height;
  const width = widthFor('support', p.widths, input.index === 0);
  const spacing = spacingOf(width, h);
  const mm3PerMm = crossSection(width, h);
  const out: Extrusion[] = [];
  const common = { layerIndex: input.index, z: input.printZ, width, height: h, mm3PerMm, spacing };
  const base = offsetEx(s.base, -width / 2);
  if (base.length) {
    out.push(
      ...fill({
        ...common,
        area: base,
        pattern: p.supportGrid ? 'grid' : 'alignedrectilinear',
        density: spacing / (spacing + p.supportGap),
        angle: 0,
        role: 'support',
      }),
    );
  }
  const iface = offsetEx(s.iface, -width / 2);
  if (iface.length) {
    out.push(
      ...fill({
        ...common,
        area: iface,
        pattern: 'alignedrectilinear',
        density: spacing / (spacing + p.interfaceGap),
        angle: 90,
        role: 'support-interface',
      }),
    );
  }
  return out;
}
