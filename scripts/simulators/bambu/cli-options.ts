/**
 * Options of the virtual Bambu printer command (main.ts): command line and
 * PRINTYARD_SIM_BAMBU_* environment variables, checked by the shared config module.
 */
import { CONFIG_ERROR, JSON_SCHEMA_DIALECT, parseConfig, type ConfigSchema, type ConfigValues } from '../../../appliance/common/config.js';
import { AppError } from '../../../appliance/common/errors.js';
import { LOG_LEVELS } from '../../../appliance/common/logger.js';
import { checkPrinterSpecs, type PrinterSpec } from './farm.js';
import { FAULT_NAMES, isFaultName, type FaultName } from './faults.js';
import { MODEL_NAMES } from './models.js';
import type { SsdpTarget } from './ssdp-announcer.js';

export const ENV_PREFIX = 'PRINTYARD_SIM_BAMBU_';

export const OPTIONS = {
  $schema: JSON_SCHEMA_DIALECT,
  type: 'object',
  'x-env-prefix': ENV_PREFIX,
  additionalProperties: false,
  properties: {
    serial: { type: 'string', default: '01P00A123456789', description: 'serial number (15 upper-case letters and digits); the TLS server name' },
    access_code: {
      type: 'string',
      default: '12345678',
      description: 'LAN access code (8 letters or digits): the MQTT and FTPS password of user bblp',
    },
    model: { type: 'string', enum: MODEL_NAMES, default: 'P1S', description: 'P1S pushes deltas, X1C full reports' },
    count: {
      type: 'integer',
      minimum: 1,
      maximum: 200,
      default: 1,
      description: "printers to run; the n-th adds n-1 to the serial's last three digits and to both ports",
    },
    bind: { type: 'string', default: '127.0.0.1', description: 'address the printers listen on (0.0.0.0 for the whole network)' },
    mqtt_port: { type: 'integer', minimum: 0, maximum: 65535, default: 8883, description: 'MQTT over TLS port (0 picks a free one)' },
    ftps_port: { type: 'integer', minimum: 0, maximum: 65535, default: 990, description: 'implicit FTPS port (0 picks a free one)' },
    time_scale: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 10000,
      default: 1,
      description: 'printer seconds per real second: 20 prints a 20-minute file in a minute',
    },
    push_interval_ms: { type: 'integer', minimum: 10, maximum: 60000, default: 1000, description: 'period of the status reports' },
    stagger: {
      type: 'boolean',
      default: false,
      description: "spread the printers' report clocks over one period (off: all report at the same instant)",
    },
    prepare_seconds: {
      type: 'number',
      exclusiveMinimum: -1,
      maximum: 3600,
      default: 5,
      description: 'printer seconds spent in PREPARE before printing',
    },
    ams_units: { type: 'integer', minimum: 0, maximum: 4, default: 1, description: 'AMS units of four trays' },
    faults: { type: 'string', default: '', description: `comma-separated faults on at start: ${FAULT_NAMES.join(', ')}` },
    ssdp_target: {
      type: 'string',
      default: '',
      description: 'send SSDP announcements (as the printers do, every --ssdp-interval-ms) to address:port, e.g. 255.255.255.255:2021; empty: none',
    },
    ssdp_interval_ms: { type: 'integer', minimum: 100, maximum: 600000, default: 5000, description: 'period of the SSDP announcements' },
    announce_host: {
      type: 'string',
      default: '',
      description: "the address the announcements name as the printers' (Location); empty: the bind address",
    },
    dir: { type: 'string', default: '', description: 'working folder (CA, broker files, SD cards), kept between runs; empty: a temp folder' },
    json: { type: 'boolean', default: false, description: 'print the connection details as one JSON line' },
    log_level: { type: 'string', enum: LOG_LEVELS, default: 'info', description: 'error, warn, info or debug' },
  },
} as const satisfies ConfigSchema;

export type CliOptions = ConfigValues<typeof OPTIONS>;

type Env = Readonly<Record<string, string | undefined>>;

export function loadCliOptions(argv: readonly string[], env: Env): CliOptions {
  return parseConfig(OPTIONS, { argv, env });
}

/** `--ssdp-target address:port` as a target, null when empty. */
export function parseSsdpTarget(options: CliOptions): SsdpTarget | null {
  if (options.ssdp_target === '') return null;
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(options.ssdp_target);
  const port = m ? Number(m[2]) : 0;
  if (!m || port < 1 || port > 65535)
    throw new AppError(CONFIG_ERROR, 400, `--ssdp-target: expected an IPv4 address and a port, e.g. 255.255.255.255:2021`);
  return { address: m[1], port, intervalMs: options.ssdp_interval_ms };
}

export function parseFaults(text: string): FaultName[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const name of names) {
    if (!isFaultName(name))
      throw new AppError(CONFIG_ERROR, 400, `--faults: unknown fault ${JSON.stringify(name)} (known: ${FAULT_NAMES.join(', ')})`);
  }
  return names as FaultName[];
}

function nthSerial(serial: string, n: number): string {
  if (n === 0) return serial;
  const tail = serial.slice(-3);
  if (!/^\d{3}$/.test(tail)) throw new AppError(CONFIG_ERROR, 400, '--count above 1 needs a --serial ending in three digits');
  return serial.slice(0, -3) + String((Number(tail) + n) % 1000).padStart(3, '0');
}

export function printerSpecs(options: CliOptions): PrinterSpec[] {
  const faults = parseFaults(options.faults);
  const specs: PrinterSpec[] = [];
  for (let n = 0; n < options.count; n++) {
    const shift = (port: number) => (port === 0 ? 0 : port + n);
    if (shift(options.mqtt_port) > 65535 || shift(options.ftps_port) > 65535)
      throw new AppError(CONFIG_ERROR, 400, '--count: the ports run past 65535');
    specs.push({
      serial: nthSerial(options.serial, n),
      accessCode: options.access_code,
      model: options.model,
      mqttPort: shift(options.mqtt_port),
      ftpsPort: shift(options.ftps_port),
      ams: { units: options.ams_units },
      faults,
    });
  }
  try {
    checkPrinterSpecs(specs);
  } catch (err) {
    throw new AppError(CONFIG_ERROR, 400, (err as Error).message);
  }
  return specs;
}
