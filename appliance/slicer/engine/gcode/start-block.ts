/**
 * The G-code before the first layer: heating (unless the start G-code or its macro does it),
 * machine limits, the profile's start G-code, units and modes, the first filament's settings and
 * start G-code, jerk, the auxiliary fan, and the object count for firmware that labels objects.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { pick } from '../toolpath/speeds.js';
import { fmt } from './ascii-out.js';
import { bedTemperatures } from './bed-temperature.js';
import type { Flavour } from './flavour.js';
import { machineLimits } from './machine-limits.js';
import type { WriterDeps } from './writer.js';

/** Per-filament machine settings: pressure advance when the filament asks for it. */
export function filamentSetup(c: PrintConfig, f: Flavour, filament: number): string[] {
  if (!pick(c.enable_pressure_advance, filament)) return [];
  const k = fmt(pick(c.pressure_advance, filament), 4);
  return [f.klipper ? `SET_PRESSURE_ADVANCE ADVANCE=${k}` : `M900 K${k} ; pressure advance`];
}

/** The lines before the first layer, for the job's first filament. */
export function startBlock(d: WriterDeps, filament: number): string[] {
  const c = d.config;
  const f = d.flavour;
  const out: string[] = [];
  const start = d.render(c.machine_start_gcode, 'machine_start_gcode', null);
  const bedFirst = pick(bedTemperatures(c).firstLayer, 0);
  const nozzleFirst = pick(c.nozzle_temperature_initial_layer, 0);
  const macro = /\b(PRINT_START|START_PRINT)\b/i.test(start);
  if (!f.bambu && !macro) {
    const setsBed = /^\s*M1(40|90)\b/im.test(start);
    const setsNozzle = /^\s*M10[49]\b/im.test(start);
    if (!setsBed && bedFirst > 0) out.push(`M190 S${bedFirst} ; wait for bed`);
    if (!setsNozzle) out.push(`M109 S${nozzleFirst} ; wait for nozzle`);
  }
  if (c.emit_machine_limits_to_gcode && f.mayEmitLimits) out.push(...machineLimits(c));
  out.push(f.bambu ? '; FEATURE: Custom' : ';TYPE:Custom', start.trimEnd());
  // Bambu Studio's end of the preparation: its time is the total less the model's printing time.
  if (f.bambu) out.push('; MACHINE_START_GCODE_END');
  out.push(
    'G21 ; millimetres',
    'G90 ; absolute coordinates',
    c.use_relative_e_distances ? 'M83 ; relative extrusion' : 'M82 ; absolute extrusion',
    'G92 E0',
  );
  out.push(...filamentSetup(c, f, filament));
  const filamentStart = d.render(pick(c.filament_start_gcode, filament), 'filament_start_gcode', null, { current_extruder: filament }).trimEnd();
  if (filamentStart) out.push(filamentStart);
  if (c.default_jerk > 0 && !f.klipper) out.push(`M205 X${fmt(c.default_jerk, 2)} Y${fmt(c.default_jerk, 2)} ; jerk`);
  if (f.bambu && pick(c.additional_cooling_fan_speed, filament) > 0) {
    out.push(`M106 P2 S${Math.round((pick(c.additional_cooling_fan_speed, filament) * 255) / 100)} ; auxiliary fan`);
  }
  if (f.klipper) out.push(`SET_PRINT_STATS_INFO TOTAL_LAYER=${d.totalLayers}`);
  if (c.gcode_label_objects && f.name !== 'klipper' && !f.bambu) out.push(`M486 T${d.objects.length}`);
  out.push(f.fan(0));
  return out;
}
