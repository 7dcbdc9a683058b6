/**
 * The G-code the driver adds around a host print: parking on pause, returning on resume, making
 * the printer safe on stop. Marlin's own pause (M125/M600, PARK_HEAD_ON_PAUSE) is not in every
 * build and no `Cap:` line tells, so the host moves the head itself, like OctoPrint's scripts.
 *
 * Pause: the stream stops, the line in flight is finished, the position is read (M114, logical
 * coordinates), then: retract PARK_RETRACT_MM of filament, lift Z by PARK_LIFT_MM (relative; the
 * firmware stops it at the top of the axis), move to X0 Y0 — the home corner of a cartesian or
 * CoreXY printer (soft endstops keep it inside), the centre of a delta, where the head then
 * stays lifted above the print. Heaters stay on.
 * Resume: back to X/Y at the lifted height, down to Z, push the filament back, then restore
 * what the file had set: absolute or relative positioning and extrusion, and its feed rate.
 * Stop: the stream stops, the line in flight is finished, the same park as a pause (unless the
 * head is parked already), then every hotend, the bed (and a chamber) off, the part fan off, the
 * motors off.
 */
import type { MotionModes } from './gcode-state.js';

export const PARK_RETRACT_MM = 2;
export const PARK_LIFT_MM = 10;
export const PARK_X = 0;
export const PARK_Y = 0;
const RETRACT_FEEDRATE = 2100;
const Z_FEEDRATE = 600;
const XY_FEEDRATE = 6000;

export interface Position {
  x: number;
  y: number;
  z: number;
  e: number;
}

/** Where the print was and how it moved when it was paused. */
export interface PausedAt {
  position: Position;
  modes: MotionModes;
}

function mm(value: number): string {
  return value.toFixed(3).replace(/\.?0+$/, '');
}

export function parkCommands(): string[] {
  return [
    'M83',
    `G1 E-${mm(PARK_RETRACT_MM)} F${RETRACT_FEEDRATE}`,
    'G91',
    `G1 Z${mm(PARK_LIFT_MM)} F${Z_FEEDRATE}`,
    'G90',
    `G1 X${mm(PARK_X)} Y${mm(PARK_Y)} F${XY_FEEDRATE}`,
  ];
}

export function returnCommands(paused: PausedAt): string[] {
  const { position, modes } = paused;
  return [
    'G90',
    `G1 X${mm(position.x)} Y${mm(position.y)} F${XY_FEEDRATE}`,
    `G1 Z${mm(position.z)} F${Z_FEEDRATE}`,
    'M83',
    `G1 E${mm(PARK_RETRACT_MM)} F${RETRACT_FEEDRATE}`,
    // G90/G91 set the E mode too, so the E mode comes after them.
    modes.relativeXYZ ? 'G91' : 'G90',
    modes.relativeE ? 'M83' : 'M82',
    ...(modes.feedrate === null ? [] : [`G1 F${mm(modes.feedrate)}`]),
  ];
}

/** Heaters, part fan and motors off; `chamber` when the firmware has a chamber heater. */
export function safeCommands(extruders: number, chamber: boolean): string[] {
  return [...Array.from({ length: extruders }, (_, tool) => `M104 T${tool} S0`), 'M140 S0', ...(chamber ? ['M141 S0'] : []), 'M107', 'M84'];
}
