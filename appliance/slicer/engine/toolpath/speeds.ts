/** Print speed and acceleration of each feature, with first-layer rules and the volumetric limit. */
import type { PrintConfig } from '../../profiles/schema.js';
import type { ExtrusionRole } from './types.js';

function baseSpeed(role: ExtrusionRole, c: PrintConfig): number {
  switch (role) {
    case 'outer-wall':
    case 'thin-wall':
      return c.outer_wall_speed;
    case 'inner-wall':
      return c.inner_wall_speed;
    case 'overhang-wall':
      return c.overhang_speed;
    case 'gap-fill':
      return c.gap_infill_speed;
    case 'sparse-infill':
      return c.sparse_infill_speed;
    case 'solid-infill':
    case 'bottom-surface':
      return c.internal_solid_infill_speed;
    case 'top-surface':
      return c.top_surface_speed;
    case 'bridge':
      return c.bridge_speed;
    case 'skirt':
    case 'brim':
      return c.skirt_speed || c.initial_layer_speed;
    case 'support':
      return c.support_speed;
    case 'support-interface':
      return c.support_interface_speed;
  }
}

function firstLayerSpeed(role: ExtrusionRole, c: PrintConfig): number {
  if (role === 'sparse-infill' || role === 'solid-infill' || role === 'bottom-surface') return c.initial_layer_infill_speed;
  if (role === 'skirt' || role === 'brim') return c.skirt_speed || c.initial_layer_speed;
  return c.initial_layer_speed;
}

/** mm/s for an extrusion of `role` with cross-section `mm3PerMm` on layer `layer` (0-based). */
export function speedFor(role: ExtrusionRole, mm3PerMm: number, layer: number, c: PrintConfig, filament: number): number {
  let speed = baseSpeed(role, c);
  if (layer === 0) speed = Math.min(speed, firstLayerSpeed(role, c));
  else if (layer < c.slow_down_layers) {
    // Ramp from the first layer's speed to the normal one over the slow-down layers.
    const first = Math.min(speed, firstLayerSpeed(role, c));
    speed = first + ((speed - first) * layer) / c.slow_down_layers;
  }
  const maxVolumetric = pick(c.filament_max_volumetric_speed, filament);
  if (maxVolumetric > 0 && mm3PerMm > 0) speed = Math.min(speed, maxVolumetric / mm3PerMm);
  return speed;
}

/** Acceleration for a feature, or 0 when the profile leaves it to the firmware. */
export function accelerationFor(role: ExtrusionRole | 'travel', layer: number, c: PrintConfig): number {
  const fallback = c.default_acceleration;
  if (fallback <= 0) return 0;
  if (layer === 0 && c.initial_layer_acceleration > 0) return c.initial_layer_acceleration;
  const specific = roleAcceleration(role, c);
  return specific > 0 ? specific : fallback;
}

/** The profile's acceleration for the feature itself, 0 where it has none (a function, not a closure made per move). */
function roleAcceleration(role: ExtrusionRole | 'travel', c: PrintConfig): number {
  switch (role) {
    case 'travel':
      return c.travel_acceleration;
    case 'outer-wall':
    case 'thin-wall':
    case 'overhang-wall':
      return c.outer_wall_acceleration;
    case 'inner-wall':
      return c.inner_wall_acceleration;
    case 'top-surface':
      return c.top_surface_acceleration;
    case 'sparse-infill':
      return c.sparse_infill_acceleration;
    case 'bridge':
      return c.bridge_acceleration;
    default:
      return 0;
  }
}

export function travelSpeed(layer: number, c: PrintConfig): number {
  return layer === 0 ? (c.travel_speed * c.initial_layer_travel_speed) / 100 : c.travel_speed;
}

export function pick<T>(values: readonly T[], index: number): T {
  return values[Math.min(index, values.length - 1)];
}
