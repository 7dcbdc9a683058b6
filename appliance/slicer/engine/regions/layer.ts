/**
 * Everything one layer prints for its objects: walls per island, the island's fill area split
 * into surfaces, and the infill of each. Pure function of its inputs, run in worker threads.
 */
import { offsetEx } from '../geometry/clipper.js';
import type { ExPolygon } from '../geometry/types.js';
import type { Extrusion, ExtrusionRole, IslandPaths, LayerPaths } from '../toolpath/types.js';
import { bridgeFlow, crossSection, spacingOf, widthFor } from './flow.js';
import { bridgeAngle, fill, type FillPattern } from './infill/index.js';
import type { RegionParams } from './params.js';
import { buildWalls } from './perimeters.js';
import type { SupportLayer } from './support.js';
import { classifyFill, surfaceMasks } from './surfaces.js';

export interface ObjectLayer {
  object: number;
  filament: number;
  islands: ExPolygon[];
  /** The object's next layers up, nearest first (ends early past its top). */
  above: ExPolygon[][];
  /** The object's layers below, nearest first. */
  below: ExPolygon[][];
}

export interface LayerInput {
  index: number;
  printZ: number;
  height: number;
  objects: ObjectLayer[];
  support: SupportLayer | null;
}

/** How far bridge lines reach into their anchors, as PrusaSlicer's external infill margin. */
const BRIDGE_ANCHOR = 3;

export function buildLayer(input: LayerInput, p: RegionParams): LayerPaths {
  const first = input.index === 0;
  const h = input.height;
  const islands: IslandPaths[] = [];
  let hasBridges = false;
  for (const obj of input.objects) {
    if (obj.islands.length === 0) continue;
    const masks = surfaceMasks(obj.islands, obj.above, obj.below, p.topLayers, p.bottomLayers);
    const outerWidth = widthFor('outer-wall', p.widths, first);
    const supportedBy = !first && p.detectOverhangWalls && obj.below.length ? offsetEx(obj.below[0], outerWidth / 2) : null;
    for (const island of obj.islands) {
      const walls = buildWalls(island, {
        loops: p.wallLoops,
        outerWidth,
        innerWidth: widthFor('inner-wall', p.widths, first),
        height: h,
        sequence: p.wallSequence,
        detectThinWalls: p.detectThinWalls,
        supportedBy,
      });
      const regions = classifyFill(walls.innerEdge, masks, {
        firstLayer: first,
        minSparseArea: p.minSparseArea,
        bridgeAnchor: BRIDGE_ANCHOR,
        solidInfill: p.density >= 0.999,
      });
      const infill: Extrusion[] = [];
      const add = (area: ExPolygon[], role: ExtrusionRole, pattern: FillPattern, density: number, angle: number, overlap: number) => {
        if (area.length === 0) return;
        const width = widthFor(role, p.widths, first);
        const spacing = spacingOf(width, h);
        const inset = offsetEx(area, -(0.5 - overlap) * spacing);
        if (inset.length === 0) return;
        infill.push(...fill({ area: inset, pattern, density, spacing, angle, layerIndex: input.index, z: input.printZ, role, width, height: h, mm3PerMm: crossSection(width, h) }));
      };
      if (regions.bridge.length) {
        hasBridges = true;
        const below = obj.below[0] ?? [];
        const flow = bridgeFlow(p.nozzle, p.bridgeFlowRatio, h, p.thickBridges);
        for (const bridge of regions.bridge) {
          const inset = offsetEx([bridge], -(0.5 - p.surfaceOverlap) * flow.spacing);
          if (inset.length === 0) continue;
          const angle = p.bridgeAngle ?? bridgeAngle(bridge, below);
          infill.push(...fill({
            area: inset, pattern: 'alignedrectilinear', density: 1, spacing: flow.spacing, angle, layerIndex: input.index,
            z: input.printZ, role: 'bridge', width: flow.width, height: h, mm3PerMm: flow.mm3PerMm,
          }));
        }
      }
      add(regions.bottom, first ? 'bottom-surface' : 'solid-infill', p.bottomPattern, 1, p.solidAngle, p.surfaceOverlap);
      add(regions.sparse, 'sparse-infill', p.sparsePattern, p.density, p.infillAngle, p.infillOverlap);
      add(regions.solid, 'solid-infill', p.solidPattern, 1, p.solidAngle, p.infillOverlap);
      add(regions.top, 'top-surface', p.topPattern, 1, p.solidAngle, p.surfaceOverlap);
      islands.push({ object: obj.object, filament: obj.filament, outline: island, walls: walls.walls, infill });
    }
  }
  const support = input.support ? supportPaths(input.support, input, p) : [];
  return { index: input.index, printZ: input.printZ, height: h, islands, support, adhesion: [], hasBridges };
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
    out.push(...fill({ ...common, area: base, pattern: p.supportGrid ? 'grid' : 'alignedrectilinear', density: spacing / (spacing + p.supportGap), angle: 0, role: 'support' }));
  }
  const iface = offsetEx(s.iface, -width / 2);
  if (iface.length) {
    out.push(...fill({ ...common, area: iface, pattern: 'alignedrectilinear', density: spacing / (spacing + p.interfaceGap), angle: 90, role: 'support-interface' }));
  }
  return out;
}
