/**
 * Reuse of walls and infill between consecutive layers of a worker. An island identical to one on
 * the layer below (same content hash) and resting on it gets the same walls; an identical fill
 * area with the same pattern phase gets the same lines; a layer that depends on the same things as
 * one two layers down (workers/tasks.ts says what) is that layer's toolpaths.
 */
import type { ExPolygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';
import type { IslandWalls } from './perimeters.js';
import type { FillRegions } from './surfaces.js';

/**
 * Layers an unused entry is kept for. Walls and fills are reused from the layer below, or from
 * two layers down for patterns that turn every layer; geometry of a layer outline serves the shell
 * neighbourhoods of the layers around it. Toolpaths are most of a worker's memory: they go first.
 */
const KEEP_PATHS = 2;
const KEEP_OUTLINE_GEOMETRY = 12;
/**
 * Layers whose walls and fill regions are kept, per object: they serve the layers an internal
 * bridge may rest on them from (two for a thick bridge on 0.2 mm layers, more on thinner ones).
 * They are kept by last use, not by layer: the layers of a prism are copies that build nothing, so
 * the first layer built after a long run of them still finds the regions of the layers it rests
 * on, which are those of the run's first layers.
 */
const KEEP_CLASSIFIED_LAYERS = 8;

export class RegionCache {
  private readonly walls = new Map<string, { layer: number; value: IslandWalls }>();
  private readonly fills = new Map<string, { layer: number; value: Extrusion[] }>();
  private readonly outlineGeometry = new Map<string, { layer: number; value: ExPolygon[] }>();
  private readonly fillRegions = new Map<string, { layer: number; value: FillRegions }>();
  private readonly layers = new Map<string, { layer: number; value: Float64Array }>();
  /** Most recently used last. */
  private readonly classifications = new Map<string, unknown>();
  private layer = -1;

  /** Moves to a layer; entries unused for longer than they can serve are dropped. */
  at(layer: number): void {
    if (layer === this.layer) return;
    this.layer = layer;
    const drop = (map: Map<string, { layer: number }>, keep: number) => {
      for (const [key, entry] of map) if (Math.abs(entry.layer - layer) > keep) map.delete(key);
    };
    drop(this.walls, KEEP_PATHS);
    drop(this.fills, KEEP_PATHS);
    drop(this.outlineGeometry, KEEP_OUTLINE_GEOMETRY);
    drop(this.fillRegions, KEEP_PATHS);
    drop(this.layers, KEEP_PATHS);
  }

  /** A whole encoded layer by its key (what the layer depends on), reused by a repeat of it. */
  layerFor(key: string, layer: number, compute: () => Float64Array): Float64Array {
    this.at(layer);
    return this.memo(this.layers, key, compute);
  }

  wallsFor(key: string, compute: () => IslandWalls): IslandWalls {
    return this.memo(this.walls, key, compute);
  }

  fillFor(key: string, compute: () => Extrusion[]): Extrusion[] {
    return this.memo(this.fills, key, compute);
  }

  /**
   * An object's walls and fill regions on a layer, by what they depend on (regions/layer.ts builds
   * the key); `objects` is the number of objects the layers hold.
   */
  classificationFor<T>(key: string, objects: number, compute: () => T): T {
    const map = this.classifications;
    if (map.has(key)) {
      const hit = map.get(key) as T;
      map.delete(key);
      map.set(key, hit);
      return hit;
    }
    const value = compute();
    map.set(key, value);
    for (const oldest of map.keys()) {
      if (map.size <= KEEP_CLASSIFIED_LAYERS * Math.max(objects, 1)) break;
      map.delete(oldest);
    }
    return value;
  }

  /** An island's fill regions by the hashes of its fill area and the masks near it (regions/surfaces.ts builds the key). */
  fillRegionsFor(key: string, compute: () => FillRegions): FillRegions {
    return this.memo(this.fillRegions, key, compute);
  }

  /** Geometry derived from a layer outline alone (by its hash): shared by the layers around it. */
  outlineGeometryFor(key: string, compute: () => ExPolygon[]): ExPolygon[] {
    return this.memo(this.outlineGeometry, key, compute);
  }

  private memo<T>(map: Map<string, { layer: number; value: T }>, key: string, compute: () => T): T {
    const hit = map.get(key);
    if (hit) {
      hit.layer = this.layer;
      return hit.value;
    }
    const value = compute();
    map.set(key, { layer: this.layer, value });
    return value;
  }
}
