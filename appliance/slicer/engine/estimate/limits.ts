/**
 * What the firmware allows: the kinematic limits the motion planner works within, and how they
 * come from a printer configuration. Numbers are mm, mm/s and mm/s².
 */
import { defaultConfig, type PrintConfig } from '../../profiles/schema.js';

/** How the firmware decides the speed at the junction of two moves. */
export type JunctionModel = 'jerk' | 'junction-deviation' | 'klipper';

/** Whose meaning of M201/M203/M204/M205 the G-code follows. */
export type CommandDialect = 'marlin' | 'reprap' | 'klipper';

export interface AxisValues {
  x: number;
  y: number;
  z: number;
  e: number;
}

export interface MachineLimits {
  junction: JunctionModel;
  dialect: CommandDialect;
  /** Per-axis maximum speed (M203). */
  maxSpeed: AxisValues;
  /** Per-axis maximum acceleration (M201). */
  maxAccel: AxisValues;
  /** Per-axis instantaneous speed change allowed by classic jerk (M205 X/Y/Z/E). */
  maxJerk: AxisValues;
  /** Marlin junction deviation in mm (M205 J). */
  junctionDeviation: number;
  /** Acceleration of extruding moves (M204 P). */
  printAccel: number;
  /** Acceleration of extruder-only moves: retracts and unretracts (M204 R). */
  retractAccel: number;
  /** Acceleration of moves that do not extrude (M204 T). */
  travelAccel: number;
  /** Feedrate floors (M205 S and T). */
  minExtrudeRate: number;
  minTravelRate: number;
  /** Klipper: cap on the toolhead speed (SET_VELOCITY_LIMIT VELOCITY); 0 means none. */
  maxVelocity: number;
  /** Klipper square_corner_velocity. */
  squareCornerVelocity: number;
  /** Klipper minimum_cruise_ratio: the share of a short move that must be spent cruising. */
  minimumCruiseRatio: number;
  /** Klipper extruder instantaneous_corner_velocity: the E speed change allowed at a junction. */
  extruderCornerVelocity: number;
}

/** Firmware retraction (G10/G11) of one extruder, as M207/M208 would set it. */
export interface FirmwareRetraction {
  length: number;
  speed: number;
  unretractSpeed: number;
  extraOnUnretract: number;
}

/* Klipper's documented defaults for the values no slicer profile carries. */
const KLIPPER_MINIMUM_CRUISE_RATIO = 0.5;
const KLIPPER_EXTRUDER_CORNER_VELOCITY = 1;

function first(values: readonly number[], index = 0): number {
  return values[Math.min(index, values.length - 1)] ?? 0;
}

function junctionModelOf(config: PrintConfig): JunctionModel {
  if (config.gcode_flavor === 'klipper') return 'klipper';
  return config.gcode_flavor === 'marlin2' && config.machine_max_junction_deviation > 0 ? 'junction-deviation' : 'jerk';
}

function dialectOf(flavor: PrintConfig['gcode_flavor']): CommandDialect {
  if (flavor === 'klipper') return 'klipper';
  return flavor === 'reprapfirmware' ? 'reprap' : 'marlin';
}

/**
 * The limits a printer configuration describes. The flavour picks the junction model: Klipper's
 * own for `klipper`, junction deviation for `marlin2` with a deviation above zero, classic jerk
 * otherwise. Legacy Marlin and Klipper have no separate travel acceleration, so theirs is the
 * extruding one.
 */
export function limitsFromConfig(config: PrintConfig): MachineLimits {
  const flavor = config.gcode_flavor;
  const junction = junctionModelOf(config);
  const dialect = dialectOf(flavor);
  const printAccel = config.machine_max_acceleration_extruding;
  const sharedTravel = flavor === 'marlin' || flavor === 'klipper';
  return {
    junction,
    dialect,
    maxSpeed: { x: config.machine_max_speed_x, y: config.machine_max_speed_y, z: config.machine_max_speed_z, e: config.machine_max_speed_e },
    maxAccel: {
      x: config.machine_max_acceleration_x,
      y: config.machine_max_acceleration_y,
      z: config.machine_max_acceleration_z,
      e: config.machine_max_acceleration_e,
    },
    maxJerk: { x: config.machine_max_jerk_x, y: config.machine_max_jerk_y, z: config.machine_max_jerk_z, e: config.machine_max_jerk_e },
    junctionDeviation: config.machine_max_junction_deviation,
    printAccel,
    retractAccel: config.machine_max_acceleration_retracting,
    travelAccel: sharedTravel ? printAccel : config.machine_max_acceleration_travel,
    // RepRapFirmware has no feedrate floors.
    minExtrudeRate: dialect === 'reprap' ? 0 : config.machine_min_extruding_rate,
    minTravelRate: dialect === 'reprap' ? 0 : config.machine_min_travel_rate,
    maxVelocity: 0,
    squareCornerVelocity: config.klipper_square_corner_velocity,
    minimumCruiseRatio: KLIPPER_MINIMUM_CRUISE_RATIO,
    extruderCornerVelocity: KLIPPER_EXTRUDER_CORNER_VELOCITY,
  };
}

/** Firmware retraction per extruder from the printer's retraction settings. */
export function firmwareRetractionFromConfig(config: PrintConfig): FirmwareRetraction[] {
  return config.retraction_length.map((length, i) => {
    const speed = first(config.retraction_speed, i);
    const unretract = first(config.deretraction_speed, i);
    return { length, speed, unretractSpeed: unretract > 0 ? unretract : speed, extraOnUnretract: first(config.retract_restart_extra, i) };
  });
}

/** A deep copy, so a planner or estimator can change its limits without touching the caller's. */
export function copyLimits(limits: MachineLimits): MachineLimits {
  return {
    ...limits,
    maxSpeed: { ...limits.maxSpeed },
    maxAccel: { ...limits.maxAccel },
    maxJerk: { ...limits.maxJerk },
  };
}

function freezeLimits(limits: MachineLimits): Readonly<MachineLimits> {
  Object.freeze(limits.maxSpeed);
  Object.freeze(limits.maxAccel);
  Object.freeze(limits.maxJerk);
  return Object.freeze(limits);
}

const DEFAULT_CONFIG = defaultConfig();

/** What we assume for a G-code file that says nothing about its printer: the schema's defaults. */
export const DEFAULT_LIMITS: Readonly<MachineLimits> = freezeLimits(limitsFromConfig(DEFAULT_CONFIG));

/** Firmware retraction for a file that says nothing: the schema's defaults. */
export const DEFAULT_FIRMWARE_RETRACTION: readonly FirmwareRetraction[] = Object.freeze(firmwareRetractionFromConfig(DEFAULT_CONFIG));
