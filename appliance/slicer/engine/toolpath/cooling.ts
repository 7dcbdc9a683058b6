/**
 * Layer cooling as OrcaSlicer's (and PrusaSlicer's) cooling buffer decides it, with their notion
 * of layer time: the moves' lengths over their feed rates, without acceleration. Below the minimum
 * layer time the extrusions slow down (not below the minimum speed) and the fan runs at maximum;
 * up to the fan threshold the fan speed is interpolated between maximum and minimum; the first
 * layers run without fan, ramping to full at `full_fan_speed_layer`.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { pick } from './speeds.js';

export interface CoolingDecision {
  /** Seconds the extrusions must be slowed by (0: no slow-down). */
  slowDownBy: number;
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
  const slowDownBy = pick(c.slow_down_for_layer_cooling, filament) && layerTime < slowdownTime && extrudeTime > 0 ? slowdownTime - layerTime : 0;
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
  return { slowDownBy, fan: (fanPct * 255) / 100, bridgeFan: (bridgePct * 255) / 100 };
}
