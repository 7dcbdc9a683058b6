/**
 * Layer cooling as OrcaSlicer's cooling buffer decides it: below the minimum layer time the
 * extrusions slow down (not below the minimum speed) and the fan runs at maximum; up to the fan
 * threshold the fan speed is interpolated between maximum and minimum; the first layers run
 * without fan, ramping to full at `full_fan_speed_layer`.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { pick } from './speeds.js';

export interface CoolingDecision {
  /** Factor (≤ 1) applied to every extrusion speed of the layer. */
  speedFactor: number;
  /** Part fan, 0..255. */
  fan: number;
  /** Fan for bridges and overhangs, 0..255. */
  bridgeFan: number;
}

export function decideCooling(layer: number, layerTime: number, extrudeTime: number, c: PrintConfig, filament: number): CoolingDecision {
  const slowdownTime = pick(c.slow_down_layer_time, filament);
  const fanTime = pick(c.fan_cooling_layer_time, filament);
  const fanMin = pick(c.fan_min_speed, filament);
  const fanMax = pick(c.fan_max_speed, filament);
  let speedFactor = 1;
  if (pick(c.slow_down_for_layer_cooling, filament) && layerTime < slowdownTime && extrudeTime > 0) {
    speedFactor = extrudeTime / (extrudeTime + (slowdownTime - layerTime));
  }
  let fanPct: number;
  if (layerTime < slowdownTime) fanPct = fanMax;
  else if (layerTime < fanTime) fanPct = fanMax - ((fanMax - fanMin) * (layerTime - slowdownTime)) / Math.max(fanTime - slowdownTime, 1e-9);
  else fanPct = pick(c.reduce_fan_stop_start_freq, filament) ? fanMin : 0;
  let bridgePct = pick(c.overhang_fan_speed, filament);
  const off = pick(c.close_fan_the_first_x_layers, filament);
  const full = pick(c.full_fan_speed_layer, filament);
  if (layer < off) {
    fanPct = 0;
    bridgePct = 0;
  } else if (full > off && layer < full) {
    const ramp = (layer - off + 1) / (full - off + 1);
    fanPct *= ramp;
    bridgePct *= ramp;
  }
  return { speedFactor, fan: (fanPct * 255) / 100, bridgeFan: (bridgePct * 255) / 100 };
}

/**
 * Whether the cooling decision needs the planner's layer time. The time without acceleration is a
 * lower bound of the real one; when even that is past every threshold that changes the decision,
 * the exact time would not change it either.
 */
export function needsExactLayerTime(lowerBound: number, c: PrintConfig, filament: number): boolean {
  if (lowerBound < pick(c.slow_down_layer_time, filament)) return true;
  const fanVaries = pick(c.fan_min_speed, filament) !== pick(c.fan_max_speed, filament) || !pick(c.reduce_fan_stop_start_freq, filament);
  return fanVaries && lowerBound < pick(c.fan_cooling_layer_time, filament);
}
