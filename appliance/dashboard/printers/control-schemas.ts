/** JSON schemas of the printer control routes (control-routes.ts). */
import type { JsonSchema } from '../http/route.js';
import { PRINTER_ACTIONS } from './actions.js';
import { CONTROL_ACTIONS } from './control.js';
import { printerStatusSchema } from './status.js';

const MAX_COMMAND = 4096;

export const commandBodySchema: JsonSchema = {
  type: 'object',
  required: ['command'],
  additionalProperties: false,
  properties: {
    command: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_COMMAND,
      // Line breaks separate lines; other control characters have no place in G-code.
      pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$',
      description: 'One G-code line, or several separated by line breaks, e.g. `G28` or `M104 S200\\nM140 S60`.',
      examples: ['G28'],
    },
  },
};

export const commandResultSchema: JsonSchema = {
  type: 'object',
  required: ['lines'],
  additionalProperties: false,
  properties: {
    lines: {
      type: 'array',
      items: { type: 'string' },
      description: 'What the printer answered, line by line; empty for printers that do not answer (Bambu).',
    },
  },
};

export const controlBodySchema: JsonSchema = {
  type: 'object',
  required: ['action'],
  additionalProperties: false,
  properties: { action: { type: 'string', enum: [...CONTROL_ACTIONS] } },
};

const nullableNumber: JsonSchema = { type: ['number', 'null'] };

const amsTraySchema: JsonSchema = {
  type: 'object',
  required: ['slot', 'present', 'material', 'color', 'remaining_percent'],
  additionalProperties: false,
  properties: {
    slot: { type: 'integer', minimum: 0 },
    present: { type: 'boolean' },
    material: { type: ['string', 'null'] },
    color: { type: ['string', 'null'], description: '#RRGGBBAA' },
    remaining_percent: nullableNumber,
    k: { type: 'number' },
    spool_uuid: { type: 'string' },
  },
};

export const amsUpdateSchema: JsonSchema = {
  type: 'object',
  required: ['printer_id', 'units', 'external', 'active_tray', 'updated_at'],
  additionalProperties: false,
  properties: {
    printer_id: { type: 'string' },
    units: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'humidity', 'temperature', 'trays'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer' },
          humidity: nullableNumber,
          temperature: nullableNumber,
          trays: { type: 'array', items: amsTraySchema },
        },
      },
    },
    external: { oneOf: [amsTraySchema, { type: 'null' }] },
    active_tray: {
      oneOf: [{ type: 'integer' }, { const: 'external' }, { type: 'null' }],
      description: 'Global tray id (unit * 4 + slot), `external`, or null.',
    },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

export const capabilitiesSchema: JsonSchema = {
  type: 'object',
  required: ['upload', 'ams', 'camera', 'gcode_console', 'actions'],
  additionalProperties: false,
  properties: {
    upload: { type: 'boolean' },
    ams: { type: 'boolean' },
    camera: { type: 'boolean' },
    gcode_console: { type: 'boolean', description: '`POST /command` is available.' },
    actions: { type: 'array', items: { type: 'string', enum: [...PRINTER_ACTIONS] }, description: 'The `POST /actions/<name>` this printer offers.' },
  },
};

export const liveStateSchema: JsonSchema = {
  type: 'object',
  required: ['printer_id', 'online', 'status', 'capabilities', 'ams', 'details'],
  additionalProperties: false,
  properties: {
    printer_id: { type: 'string' },
    online: { type: 'boolean' },
    status: printerStatusSchema,
    capabilities: {
      oneOf: [capabilitiesSchema, { type: 'null' }],
      description: 'Null when the printer has no driver (disabled, or no driver for its type).',
    },
    ams: { oneOf: [amsUpdateSchema, { type: 'null' }], description: 'The last AMS state; null while offline or for printers without one.' },
    details: {
      type: 'object',
      description:
        "The protocol's own facts (Bambu: gcode_state, stage, speed_level, lights, print_error, hms, developer_mode…); empty while offline.",
    },
  },
};
