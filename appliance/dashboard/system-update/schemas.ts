/** Schemas of the update routes, for the OpenAPI description and the web app's types. */
import type { JsonSchema } from '../http/route.js';

export const ERROR_SCHEMA_REF: JsonSchema = { $ref: '#/components/schemas/Error' };

const NULLABLE_STRING: JsonSchema = { type: ['string', 'null'] };

const SLOT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['name', 'bootname', 'state', 'boot_status', 'version', 'build', 'installed_at'],
  properties: {
    name: { type: 'string', description: "RAUC's slot name, e.g. rootfs.0" },
    bootname: { ...NULLABLE_STRING, description: "the bootloader's name of the slot: A or B" },
    state: { type: 'string', description: 'booted, active (the one RAUC would write next is the other) or inactive' },
    boot_status: { ...NULLABLE_STRING, description: 'good or bad, as the bootloader has it' },
    version: { ...NULLABLE_STRING, description: 'the version of the bundle last installed into it; null for a slot written at the factory' },
    build: NULLABLE_STRING,
    installed_at: { ...NULLABLE_STRING, description: 'when that bundle was installed' },
  },
};

export const PROGRESS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'An update in progress, as the `system.update` WebSocket event carries it.',
  required: ['phase', 'percent', 'message', 'version', 'error'],
  properties: {
    phase: { enum: ['receiving', 'checking', 'refused', 'installing', 'installed', 'failed'] },
    percent: { type: ['integer', 'null'], minimum: 0, maximum: 100, description: "RAUC's overall percentage while installing" },
    message: { type: 'string', description: "RAUC's current step" },
    version: NULLABLE_STRING,
    error: NULLABLE_STRING,
  },
};

const LAST_SCHEMA: JsonSchema = {
  type: ['object', 'null'],
  required: ['version', 'build', 'slot', 'started_at', 'finished_at', 'result', 'error', 'allow_downgrade'],
  properties: {
    version: { type: 'string' },
    build: NULLABLE_STRING,
    slot: { ...NULLABLE_STRING, description: 'the slot written' },
    started_at: { type: 'string', format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    result: { enum: ['installing', 'installed', 'failed'] },
    error: NULLABLE_STRING,
    allow_downgrade: { type: 'boolean' },
  },
};

export const UPDATE_STATE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['available', 'problem', 'compatible', 'booted', 'running_version', 'slots', 'reboot_required', 'busy', 'last', 'max_bundle_bytes'],
  properties: {
    available: { type: 'boolean', description: 'RAUC answers (its service runs); false on a machine without it' },
    problem: { ...NULLABLE_STRING, description: 'why RAUC is not available' },
    compatible: { ...NULLABLE_STRING, description: "the system's `compatible`: a bundle must carry the same" },
    booted: { ...NULLABLE_STRING, description: 'bootname of the booted slot' },
    running_version: { type: 'string', description: "the booted slot's bundle version, else this build's" },
    slots: { type: 'array', items: SLOT_SCHEMA },
    reboot_required: { type: 'boolean', description: 'an installed update waits for a reboot (POST /api/system/update/reboot)' },
    busy: { oneOf: [{ type: 'null' }, PROGRESS_SCHEMA], description: 'the update being received, checked or installed' },
    last: LAST_SCHEMA,
    max_bundle_bytes: { type: 'integer' },
  },
};

export const ACCEPTED_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'RAUC accepted the bundle; the install runs, followed by `system.update` events.',
  required: ['version', 'build', 'compatible'],
  properties: { version: { type: 'string' }, build: NULLABLE_STRING, compatible: { type: 'string' } },
};
