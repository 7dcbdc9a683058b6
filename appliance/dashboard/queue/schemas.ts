/** JSON Schemas of the queue API: what requests are checked against and the OpenAPI description shows. */
import { NAME_FORMAT, NAME_RULE } from '../../common/names.js';
import type { JsonSchema } from '../http/route.js';
import { COPY_STATES, JOB_STATES } from './states.js';

import { MAX_PAUSE_REASON_LENGTH } from './pause.js';

export const errorSchemaRef: JsonSchema = { $ref: '#/components/schemas/Error' };

export const MAX_COPIES = 1000;
export const MAX_PRIORITY = 1000;
export const MAX_NAME_LENGTH = 200;

export const jobIdSchema: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{16}$' };
const printerIdSchema: JsonSchema = { type: 'string', minLength: 1, maxLength: 64 };
const nullableText: JsonSchema = { type: ['string', 'null'] };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

export const filamentRequirementSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['filament', 'material'],
  properties: {
    filament: { type: 'integer', minimum: 1, maximum: 32, description: "The slicer's filament number, from 1." },
    material: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9+-]{0,31}$', description: '`PLA`, `PETG-CF`…; compared case-insensitively.' },
    color_hex: { type: ['string', 'null'], pattern: '^#?[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$', description: '`#RRGGBB`; null or absent for any colour.' },
  },
};

/** What a client sends: every key optional (absent: any). */
export const requirementsInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    printer_ids: {
      type: 'array',
      maxItems: 256,

      items: printerIdSchema,
      description: 'Empty or absent: any printer; one: pinned.',
    },
    printer_type: { type: ['string', 'null'], enum: ['bambu-lan', 'marlin-serial', null] },
    printer_model: { type: ['string', 'null'], minLength: 1, maxLength: 64 },
    nozzle_diameter: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: 2 },
    filaments: {
      type: 'array',
      maxItems: 32,
      items: filamentRequirementSchema,
      description: "Absent: read from the file (a project's slice info, a G-code's `; filament_type` / `; filament_colour`); [] for none.",
    },
  },
};

const requirementsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['printer_ids', 'printer_type', 'printer_model', 'nozzle_diameter', 'filaments'],
  properties: {
    printer_ids: { type: 'array', items: { type: 'string' } },
    printer_type: nullableText,
    printer_model: nullableText,
    nozzle_diameter: { type: ['number', 'null'] },
    filaments: { type: 'array', items: filamentRequirementSchema },
  },
};

const copySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['copy', 'state', 'printer_id', 'remote_name', 'dispatches', 'error', 'started_at', 'ended_at'],
  properties: {
    copy: { type: 'integer', minimum: 1 },
    state: { type: 'string', enum: [...COPY_STATES] },
    printer_id: nullableText,
    remote_name: nullableText,
    dispatches: { type: 'integer', minimum: 0 },
    error: nullableText,
    started_at: nullableDateTime,
    ended_at: nullableDateTime,
  },
};

const amountSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['filament', 'grams', 'length_mm'],
  properties: { filament: { type: 'integer' }, grams: { type: ['number', 'null'] }, length_mm: { type: ['number', 'null'] } },
};

export const jobSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'state',
    'position',
    'priority',
    'file',
    'slice',
    'copies',
    'copies_done',
    'copies_failed',
    'requirements',
    'filaments_from',
    'plan',
    'user',
    'waiting_reason',
    'error',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    state: { type: 'string', enum: [...JOB_STATES] },
    position: { type: 'integer', minimum: 1, description: 'Place in the queue, from 1; dispatch order is priority (higher first), then position.' },
    priority: { type: 'integer' },
    file: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'format', 'size_bytes'],
      properties: {
        name: { type: 'string' },
        format: { type: ['string', 'null'], enum: ['gcode', 'gcode.3mf', null], description: 'Null for a model, sliced at dispatch.' },
        size_bytes: { type: 'integer' },
      },
    },
    slice: {
      type: ['object', 'null'],
      description: "A model's profiles (null for a print-ready file); `printer_profile_id` null: the printer's own.",
      additionalProperties: false,
      required: ['printer_profile_id', 'filament_ids', 'process_id', 'overrides'],
      properties: {
        printer_profile_id: nullableText,
        filament_ids: { type: 'array', items: { type: 'string' } },
        process_id: { type: 'string' },
        overrides: { type: 'object' },
      },
    },
    copies: { type: 'array', items: copySchema },
    copies_done: { type: 'integer', minimum: 0 },
    copies_failed: { type: 'integer', minimum: 0 },
    requirements: requirementsSchema,
    filaments_from: { type: 'string', enum: ['user', 'file', 'none'] },
    plan: {
      type: 'object',
      additionalProperties: false,
      required: ['estimate_s', 'amounts', 'has_thumbnail'],
      properties: { estimate_s: { type: ['number', 'null'] }, amounts: { type: 'array', items: amountSchema }, has_thumbnail: { type: 'boolean' } },
    },
    user: nullableText,
    waiting_reason: {
      type: ['string', 'null'],
      description: 'Why no copy of it is being dispatched now: `plate not cleared on P1`, `no printer has PETG black loaded`…',
    },
    error: nullableText,
    created_at: dateTime,
    updated_at: dateTime,
  },
};

export const pauseSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['paused', 'reasons'],
  properties: {
    paused: { type: 'boolean' },
    reasons: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['reason', 'by', 'at'],
        properties: { reason: { type: 'string' }, by: { type: 'string' }, at: dateTime },
      },
    },
  },
};

export const jobListSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'pause'],
  properties: { items: { type: 'array', items: jobSchema }, pause: pauseSchema },
};

const pauseReasonSchema: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_PAUSE_REASON_LENGTH, pattern: '\\S' };

export const pauseBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: { reason: pauseReasonSchema },
};

export const resumeBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { reason: pauseReasonSchema },
};

export const jobUpdateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', format: NAME_FORMAT, minLength: 1, maxLength: MAX_NAME_LENGTH, description: NAME_RULE },
    copies: { type: 'integer', minimum: 1, maximum: MAX_COPIES, description: 'Not below the copies already dispatched, printed or failed.' },
    priority: { type: 'integer', minimum: -MAX_PRIORITY, maximum: MAX_PRIORITY },
    position: { type: 'integer', minimum: 1, description: 'Moves the job to this place (past the end: last).' },
    requirements: requirementsInputSchema,
    state: {
      type: 'string',
      enum: ['queued', 'held', 'cancelled'],
      description: '`held` holds it; `queued` releases a held job or requeues a failed one (its failed copies print again); `cancelled` cancels it.',
    },
  },
};

export const plateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['printer_id', 'state', 'by', 'at'],
  properties: {
    printer_id: { type: 'string' },
    state: { type: 'string', enum: ['clear', 'occupied', 'unknown'], description: '`unknown` (never confirmed) counts as occupied.' },
    by: nullableText,
    at: nullableDateTime,
  },
};

export const dispatchResultSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['dispatched'],
  properties: {
    dispatched: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['job_id', 'copy', 'printer_id'],
        properties: { job_id: { type: 'string' }, copy: { type: 'integer' }, printer_id: { type: 'string' } },
      },
    },
  },
};

/** The upload form of POST /api/queue, for the OpenAPI description (the handler checks the fields). */
export const jobFormSchema: JsonSchema = {
  type: 'object',
  properties: {
    file: { type: 'string', description: 'The print-ready file: `.gcode` (Marlin printers) or `.gcode.3mf` (Bambu Lab printers).' },
    model: { type: 'string', description: 'Instead of `file`: an STL or 3MF model, sliced at dispatch for the chosen printer (at most 50 MB).' },
    filament_ids: { type: 'string', description: 'Model jobs: JSON array of filament profile ids, one per filament slot.' },
    process_id: { type: 'string', description: 'Model jobs: the process profile id.' },
    printer_profile_id: { type: 'string', description: "Model jobs: the printer profile; default the chosen printer's own." },
    overrides: { type: 'string', description: "Model jobs: JSON object of settings that replace the profiles' values." },
    name: { type: 'string', description: 'Default: the file name without its extension.' },
    copies: { type: 'string', description: `1–${MAX_COPIES}; default 1.` },
    priority: { type: 'string', description: `${-MAX_PRIORITY}–${MAX_PRIORITY}, higher first; default 0.` },
    position: { type: 'string', description: 'Place in the queue, from 1; default last.' },
    held: { type: 'string', enum: ['true', 'false'], description: 'Queue it held (default false).' },
    requirements: { type: 'string', description: 'JSON object: printer_ids, printer_type, printer_model, nozzle_diameter, filaments.' },
  },
};
