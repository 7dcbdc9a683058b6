/**
 * What the virtual printer's Marlin was "compiled" with: the choices a real configuration makes
 * that a host can see (capabilities, answer formats, timings). Defaults follow Marlin 2.1.2.1's
 * default configuration plus the options most printers enable (SD card, emergency parser, arcs,
 * cancel objects, auto-reports, long file names for hosts).
 */
import { createHash } from 'node:crypto';
import { DEFAULT_GEOMETRY, type MachineGeometry } from './motion.js';

export const MARLIN_VERSION = '2.1.2.1';
export const DISTRIBUTION_DATE = '2023-07-17';
export const COMPILED = { date: 'Jul 20 2023', time: '11:02:55' };
/** Marlin supports up to 8 extruders (EXTRUDERS). */
export const MAX_EXTRUDERS = 8;

export interface FirmwareSettings {
  /** Hotends, each with its own extruder (EXTRUDERS). */
  extruders: number;
  /** M155 temperature and M27 S SD-status auto-reports (off: the host has to poll). */
  autoReport: boolean;
  /** `ok N<line> P<planner free> B<buffer free>` instead of a bare `ok`. */
  advancedOk: boolean;
  /** M28 may create files with long names (LONG_FILENAME_WRITE_SUPPORT). */
  longFilenameWrite: boolean;
  /** Seconds between `busy: processing` lines while a command runs (M113; 0: none). */
  keepaliveSeconds: number;
  /** Milliseconds of idleness after which `wait` is sent (NO_TIMEOUTS; 0: never). */
  noTimeoutsMs: number;
  /** Milliseconds the bootloader takes after a reset; what arrives meanwhile is lost. */
  bootMs: number;
  machineName: string;
  uuid: string;
  geometry: MachineGeometry;
  /**
   * Not a Marlin option but the board's: ± °C of noise on every reported temperature, as a real
   * thermistor reading jitters (0: readings are the model's exact values).
   */
  temperatureNoise: number;
}

/** A stable UUID for a name (each simulated printer reports its own, like a configured one). */
export function uuidFor(name: string): string {
  const h = createHash('sha1').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Settings with the given overrides; throws RangeError for values no build could have. */
export function defaultFirmwareSettings(overrides: Partial<FirmwareSettings> = {}): FirmwareSettings {
  const settings: FirmwareSettings = {
    extruders: 1,
    autoReport: true,
    advancedOk: false,
    longFilenameWrite: false,
    keepaliveSeconds: 2,
    noTimeoutsMs: 0,
    bootMs: 1000,
    machineName: 'Printyard Virtual Marlin',
    uuid: 'cede2a2f-41a2-4748-9b12-c55c62f367ff',
    geometry: DEFAULT_GEOMETRY,
    temperatureNoise: 0,
    ...overrides,
  };
  if (!Number.isInteger(settings.extruders) || settings.extruders < 1 || settings.extruders > MAX_EXTRUDERS) {
    throw new RangeError(`extruders must be a whole number from 1 to ${MAX_EXTRUDERS}, got ${settings.extruders}`);
  }
  for (const key of ['keepaliveSeconds', 'noTimeoutsMs', 'bootMs', 'temperatureNoise'] as const) {
    if (!(settings[key] >= 0)) throw new RangeError(`${key} must be 0 or more, got ${settings[key]}`);
  }
  return settings;
}
