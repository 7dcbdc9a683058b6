/** Machine limits as Marlin takes them (M201, M203, M204, M205), from the printer profile. */
import type { PrintConfig } from '../../profiles/schema.js';
import { fmt } from './ascii-out.js';

export function machineLimits(c: PrintConfig): string[] {
  const r = (v: number) => Math.round(v);
  const lines = [
    `M201 X${r(c.machine_max_acceleration_x)} Y${r(c.machine_max_acceleration_y)} ` +
      `Z${r(c.machine_max_acceleration_z)} E${r(c.machine_max_acceleration_e)} ; max acceleration`,
    `M203 X${r(c.machine_max_speed_x)} Y${r(c.machine_max_speed_y)} Z${fmt(c.machine_max_speed_z, 2)} E${r(c.machine_max_speed_e)} ; max feedrate`,
    `M204 P${r(c.machine_max_acceleration_extruding)} R${r(c.machine_max_acceleration_retracting)} ` +
      `T${r(c.machine_max_acceleration_travel)} ; print, retract, travel acceleration`,
  ];
  if (c.machine_max_junction_deviation > 0) lines.push(`M205 J${fmt(c.machine_max_junction_deviation, 3)} ; junction deviation`);
  else
    lines.push(
      `M205 X${fmt(c.machine_max_jerk_x, 2)} Y${fmt(c.machine_max_jerk_y, 2)} ` +
        `Z${fmt(c.machine_max_jerk_z, 2)} E${fmt(c.machine_max_jerk_e, 2)} ; jerk`,
    );
  if (c.machine_min_extruding_rate > 0 || c.machine_min_travel_rate > 0) {
    lines.push(`M205 S${r(c.machine_min_extruding_rate)} T${r(c.machine_min_travel_rate)} ; minimum feedrates`);
  }
  return lines;
}
