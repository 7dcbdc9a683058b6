/**
 * Command-line options of the virtual Marlin (also PRINTYARD_VMARLIN_* environment variables),
 * checked with the project's config schema, and turned into simulator options.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_ERROR, JSON_SCHEMA_DIALECT, parseConfig, type ConfigSchema, type ConfigValues } from '../../../appliance/common/config.js';
import { AppError } from '../../../appliance/common/errors.js';
import { LOG_LEVELS } from '../../../appliance/common/logger.js';
import { parseFaults } from './faults.js';
import { MAX_EXTRUDERS } from './firmware-settings.js';
import type { VirtualMarlinOptions } from './virtual-marlin.js';

export const ENV_PREFIX = 'PRINTYARD_VMARLIN_';
/** Files copied onto the virtual SD card from --sd-dir. */
const GCODE_FILE = /\.(gcode|gco|g)$/i;

export const OPTIONS = {
  $schema: JSON_SCHEMA_DIALECT,
  type: 'object',
  'x-env-prefix': ENV_PREFIX,
  additionalProperties: false,
  properties: {
    link: { type: 'string', default: '', description: 'folder for the pty links: a host opens <link>/host (required)' },
    speed: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 10000,
      default: 1,
      description: 'simulated seconds per real second (heating, moves, dwells)',
    },
    faults: { type: 'string', default: '', description: 'fault rates, e.g. resend=0.05,checksum=0.02,drop=0.01,busy=0.1,disconnect=0.001' },
    seed: { type: 'integer', minimum: 0, default: 1, description: 'seed of the random fault decisions' },
    extruders: { type: 'integer', minimum: 1, maximum: MAX_EXTRUDERS, default: 1, description: 'hotends (and extruders)' },
    autoreport: { type: 'boolean', default: true, description: 'offer M155/M27 S auto-reports (--no-autoreport: hosts must poll)' },
    advanced_ok: { type: 'boolean', default: false, description: 'answer "ok N<line> P<planner> B<buffer>"' },
    lfn_write: { type: 'boolean', default: false, description: 'M28 may create long file names (Cap:LFN_WRITE)' },
    reset_on_open: { type: 'boolean', default: true, description: 'reset and print the banner when a host opens the port' },
    wait_ms: { type: 'integer', minimum: 0, default: 0, description: 'send "wait" after this many idle milliseconds (0: never)' },
    temperature_noise: { type: 'number', maximum: 10, default: 0, description: '± °C of thermistor noise on every reported temperature (0: exact)' },
    sd_dir: { type: 'string', default: '', description: 'put the G-code files of this folder on the virtual SD card' },
    log_level: { type: 'string', enum: LOG_LEVELS, default: 'info', description: 'error, warn, info or debug (debug shows the wire)' },
  },
} as const satisfies ConfigSchema;

export type CliOptions = ConfigValues<typeof OPTIONS>;

type Env = Readonly<Record<string, string | undefined>>;

function invalid(message: string): AppError {
  return new AppError(CONFIG_ERROR, 400, message);
}

export function loadOptions(argv: readonly string[], env: Env): CliOptions {
  const options = parseConfig(OPTIONS, { argv, env });
  if (options.link === '') throw invalid('--link: a folder for the pty links is required');
  if (options.temperature_noise < 0) throw invalid('--temperature-noise: must be 0 or more');
  try {
    parseFaults(options.faults);
  } catch (err) {
    throw invalid(`--faults: ${(err as Error).message}`);
  }
  return options;
}

function sdFilesFrom(dir: string): Record<string, Buffer> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw invalid(`--sd-dir: cannot read ${dir}: ${(err as Error).message}`);
  }
  const files: Record<string, Buffer> = {};
  for (const name of names) {
    const file = path.join(dir, name);
    if (GCODE_FILE.test(name) && statSync(file).isFile()) files[name] = readFileSync(file);
  }
  return files;
}

export function simulatorOptions(options: CliOptions): VirtualMarlinOptions {
  return {
    dir: path.resolve(options.link),
    speed: options.speed,
    faults: parseFaults(options.faults),
    seed: options.seed,
    resetOnOpen: options.reset_on_open,
    firmware: {
      extruders: options.extruders,
      autoReport: options.autoreport,
      advancedOk: options.advanced_ok,
      longFilenameWrite: options.lfn_write,
      noTimeoutsMs: options.wait_ms,
      temperatureNoise: options.temperature_noise,
    },
    sdFiles: options.sd_dir === '' ? {} : sdFilesFrom(options.sd_dir),
  };
}
