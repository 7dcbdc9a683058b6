/**
 * The live state of a printer, as drivers report it and as the bus and the WebSocket carry it
 * (`printer.status`, `print.progress`, `ams.update`). The shape is the common ground of what
 * Marlin (M105/M27/M73), Moonraker and Bambu `push_status` report, so every driver can fill it
 * without inventing values: what a printer does not report is null, never a guess.
 */
import type { JsonSchema } from '../http/route.js';

/**
 * `preparing` covers heating, levelling and Bambu's PREPARE/SLICING before the first layer;
 * `finished` is a completed job whose plate may still be occupied (Bambu FINISH); `error` is a
 * printer-level fault (Marlin halt, Bambu FAILED or a fatal HMS code) with `error` set.
 */
export const PRINTER_STATES = ['offline', 'connecting', 'idle', 'preparing', 'printing', 'paused', 'finished', 'error'] as const;
export type PrinterState = (typeof PRINTER_STATES)[number];

export interface HeaterTemperature {
  /** Degrees Celsius. */
  actual: number;
  /** Degrees Celsius; 0 when the heater is off. */
  target: number;
}

export interface PrintJobStatus {
  /** The file being printed, as the printer names it. */
  file: string;
  /** 0–100. */
  progress: number;
  layer: number | null;
  total_layers: number | null;
  elapsed_s: number | null;
  remaining_s: number | null;
}

export interface PrinterStatus {
  printer_id: string;
  state: PrinterState;
  /** A connection to the printer is established and it answers. */
  online: boolean;
  /** By heater, OctoPrint style: `tool0`, `tool1`, `bed`, `chamber`. */
  temperatures: Record<string, HeaterTemperature>;
  job: PrintJobStatus | null;
  /** By fan (`part`, `aux`, `chamber`, `heatbreak`…), percent 0–100. */
  fans: Record<string, number>;
  /** Why the printer is offline or in error; null otherwise. */
  error: string | null;
  /** ISO 8601, when the driver last heard from the printer (or changed this status). */
  updated_at: string;
}

/** Where a print stands, for drivers that can tell more than the printer state. */
export const PRINT_PROGRESS_STATES = ['printing', 'paused', 'finished', 'cancelled', 'interrupted', 'failed'] as const;
export type PrintProgressState = (typeof PRINT_PROGRESS_STATES)[number];

/**
 * The optional fields are filled by drivers that stream the file themselves (Marlin host
 * printing): `interrupted` is a print whose connection was lost (it is never resumed blindly),
 * `extruded_mm` the filament pushed per tool during this print, from the E positions sent.
 */
export interface PrintProgress extends PrintJobStatus {
  printer_id: string;
  updated_at: string;
  state?: PrintProgressState;
  bytes_done?: number;
  bytes_total?: number;
  lines_done?: number;
  lines_total?: number;
  extruded_mm?: number[];
}

export interface AmsTray {
  /** 0–3 within its unit. */
  slot: number;
  /** A spool is loaded. */
  present: boolean;
  /** `PLA`, `PETG-CF`…; null when unknown. */
  material: string | null;
  /** `#RRGGBBAA`; null when unknown. */
  color: string | null;
  /** Percent left; null when the printer cannot tell (non-RFID spools). */
  remaining_percent: number | null;
  /** Pressure-advance factor, when the printer reports one. */
  k?: number;
  /** Identifies the spool itself (stable across its two RFID tags). */
  spool_uuid?: string;
}

export interface AmsUnit {
  id: number;
  humidity: number | null;
  /** Degrees Celsius. */
  temperature: number | null;
  trays: AmsTray[];
}

export interface AmsUpdate {
  printer_id: string;
  units: AmsUnit[];
  /** The spool mounted outside the AMS (Bambu `vt_tray`), if the printer has one. */
  external: AmsTray | null;
  /** Global tray id in use (`unit * 4 + slot`), `external` for the outside spool, null for none. */
  active_tray: number | 'external' | null;
  updated_at: string;
}

/** The status of a printer nobody is talking to, saying why. */
export function offlineStatus(printerId: string, error: string | null, at: Date = new Date()): PrinterStatus {
  return { printer_id: printerId, state: 'offline', online: false, temperatures: {}, job: null, fans: {}, error, updated_at: at.toISOString() };
}

const nullableInteger: JsonSchema = { type: ['integer', 'null'], minimum: 0 };
const isoTime: JsonSchema = { type: 'string', format: 'date-time' };

const jobProperties = {
  file: { type: 'string' },
  progress: { type: 'number', minimum: 0, maximum: 100 },
  layer: nullableInteger,
  total_layers: nullableInteger,
  elapsed_s: { type: ['number', 'null'], minimum: 0 },
  remaining_s: { type: ['number', 'null'], minimum: 0 },
};

const printJobSchema: JsonSchema = {
  type: 'object',
  required: Object.keys(jobProperties),
  additionalProperties: false,
  properties: jobProperties,
};

export const printerStatusSchema: JsonSchema = {
  type: 'object',
  required: ['printer_id', 'state', 'online', 'temperatures', 'job', 'fans', 'error', 'updated_at'],
  additionalProperties: false,
  properties: {
    printer_id: { type: 'string' },
    state: { type: 'string', enum: [...PRINTER_STATES] },
    online: { type: 'boolean' },
    temperatures: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['actual', 'target'],
        additionalProperties: false,
        properties: { actual: { type: 'number' }, target: { type: 'number' } },
      },
    },
    job: { oneOf: [printJobSchema, { type: 'null' }] },
    fans: { type: 'object', additionalProperties: { type: 'number', minimum: 0, maximum: 100 } },
    error: { type: ['string', 'null'] },
    updated_at: isoTime,
  },
};
