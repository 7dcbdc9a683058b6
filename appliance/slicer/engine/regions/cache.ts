/**
 * Reuse of walls and infill between consecutive layers of a worker. An island identical to one on
 * the layer below (same content hash) and resting on it gets the same walls; an identical fill
 * area with the same pattern phase gets the same lines. Entries live for a couple of layers.
 */
import type { ExPolygon } from '../geometry/types.js';
import type { Extrusion } from '../toolpath/types.js';
import type { IslandWalls } from './perimeters.js';

/** Entries unused for this many layers are dropped (shell neighbourhoods reach a few layers). */
const KEEP_LAYERS = 12;

export class RegionCache {
  private readonly walls = new Map<string, { layer: number; value: IslandWalls }>();
  private readonly fills = new Map<string, { layer: number; value: Extrusion[] }>();
  private readonly rings = new Map<string, { layer: number; value: ExPolygon[] }>();
  private layer = -1;

  /** Moves to a layer; entries more than a couple of layers old are dropped. */
  at(layer: number): void {
    if (layer === this.layer) return;
    this.layer = layer;
    for (const map of [this.walls, this.fills, this.rings] as Map<string, { layer: number }>[]) {
      for (const [key, entry] of map) if (Math.abs(entry.layer - layer) > KEEP_LAYERS) map.delete(key);
    }
  }

  wallsFor(key: string, compute: () => IslandWalls): IslandWalls {
    return this.memo(this.walls, key, compute);
  }

  fillFor(key: string, compute: () => Extrusion[]): Extrusion[] {
    return this.memo(this.fills, key, compute);
  }

  /** The wall band of a layer outline (by its hash), shared by the layers around it. */
  ringFor(key: string, compute: () => ExPolygon[]): ExPolygon[] {
    return this.memo(this.rings, key, compute);
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
