/**
 * JSON schemas of the built-in engine's routes. The settings of a profile are an object whose keys
 * and values the engine's settings table checks (profile-input.ts): listing its 300-odd keys here
 * would only repeat that table, which GET /api/slicer/native/profiles/:id shows resolved.
 */
import { NAME_FORMAT, NAME_RULE } from '../../../common/names.js';
import type { JsonSchema } from '../../http/route.js';
import { SLICE_FORM_PROPERTIES } from '../slice-http.js';
import { PROFILE_KINDS } from '../../../slicer/index.js';

const PRINTABLE = '^[^\\u0000-\\u001f\\u007f]*$';
export const PROFILE_ID_PATTERN = '^[a-z0-9][a-z0-9._-]*[a-z0-9_]$|^[a-z0-9]$';

const text = (max: number, description: string): JsonSchema => ({ type: 'string', maxLength: max, pattern: PRINTABLE, description });
/** Name, vendor and printer model are shown in lists and pickers: they follow the rule for names. */
const label = (max: number, description: string): JsonSchema => ({
  type: 'string',
  maxLength: max,
  format: NAME_FORMAT,
  description: `${description} ${NAME_RULE}.`,
});
const orNull = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, 'null'] });

const kind: JsonSchema = { type: 'string', enum: [...PROFILE_KINDS] };
const name: JsonSchema = { ...label(128, 'Display name.'), minLength: 1 };
const vendor = label(128, 'Maker or author; empty by default.');
const inherits: JsonSchema = {
  type: 'string',
  pattern: PROFILE_ID_PATTERN,
  maxLength: 128,
  description: 'Id of a profile of the same kind (bundled or user) whose settings apply underneath.',
};
const description = text(2000, 'Free text.');
const compatiblePrinters: JsonSchema = {
  type: 'array',
  maxItems: 500,
  items: { type: 'string', maxLength: 128 },
  description: 'Printer profile ids this profile was made for (informative).',
};
const printerModel = label(128, 'Human name of the printer model (printer profiles).');

export const profileCreateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'name'],
  properties: {
    id: {
      type: 'string',
      pattern: PROFILE_ID_PATTERN,
      maxLength: 128,
      description: 'Lower-case letters, digits, ".", "_", "-"; derived from the name when left out.',
    },
    kind,
    name,
    vendor,
    inherits: orNull(inherits),
    description,
    compatible_printers: compatiblePrinters,
    printer_model: printerModel,
    settings: {
      type: 'object',
      description: 'Settings by their OrcaSlicer names, each belonging to the profile\'s kind, e.g. {"layer_height": 0.16}.',
    },
  },
};

export const profilePatchSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name,
    vendor,
    inherits: orNull(inherits),
    description: orNull(description),
    compatible_printers: orNull(compatiblePrinters),
    printer_model: orNull(printerModel),
    settings: {
      type: 'object',
      description: "Merged into the stored settings key by key; a key set to null is removed, so the parent's value applies again.",
    },
  },
};

export const profileIdParams: Record<string, JsonSchema> = { id: { type: 'string', minLength: 1, maxLength: 128 } };

const summaryProperties: Record<string, JsonSchema> = {
  id: { type: 'string' },
  kind,
  name: { type: 'string' },
  vendor: { type: 'string' },
  source: { type: 'string', enum: ['bundled', 'user'] },
  read_only: { type: 'boolean', description: 'Bundled profiles cannot be changed or deleted (409).' },
  is_default: { type: 'boolean' },
  inherits: { type: 'string' },
  printer_model: { type: 'string' },
  problem: { type: 'string', description: 'Why a stored user profile cannot be sliced with (its parent is gone).' },
};
const summaryRequired = ['id', 'kind', 'name', 'vendor', 'source', 'read_only', 'is_default'];

export const profileListSchema: JsonSchema = {
  type: 'object',
  required: ['profiles'],
  properties: { profiles: { type: 'array', items: { type: 'object', required: summaryRequired, properties: summaryProperties } } },
};

export const profileViewSchema: JsonSchema = {
  type: 'object',
  required: [...summaryRequired, 'settings', 'resolved_settings'],
  properties: {
    ...summaryProperties,
    description: { type: 'string' },
    compatible_printers: { type: 'array', items: { type: 'string' } },
    settings: { type: 'object', description: "The profile's own settings." },
    resolved_settings: { type: ['object', 'null'], description: 'With everything it inherits applied underneath; null when it cannot be resolved.' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

export const profileListQuery: Record<string, JsonSchema> = {
  kind,
  source: { type: 'string', enum: ['bundled', 'user'] },
};

export const sliceFormSchema: JsonSchema = {
  type: 'object',
  required: ['model', 'printer_id', 'filament_ids', 'process_id'],
  properties: SLICE_FORM_PROPERTIES,
};
