/**
 * JSON schemas of the printer routes. The connection block of each printer type comes from the
 * type table, so the OpenAPI description lists every type's fields (`oneOf`) and a new type shows
 * up without touching this file. The registry checks input against the same schemas.
 */
import { NAME_FORMAT, NAME_RULE } from '../../common/names.js';
import type { JsonSchema } from '../http/route.js';
import { printerFamilies, printerTypeNames } from './families/index.js';
import { SECRET_MASK, type PrinterTypeDefinition } from './families/printer-type.js';
import { PRINTER_STATES, printerStatusSchema } from './status.js';

const NAME_MAX = 64;
const TEXT_MAX = 128;
const PRINTABLE = '^[^\\u0000-\\u001f\\u007f]*$';

export const nameSchema: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: NAME_MAX,
  format: NAME_FORMAT,
  description: `Unique among printers, ignoring case. A name: ${NAME_RULE}.`,
};

function optionalText(description: string): JsonSchema {
  return { type: ['string', 'null'], minLength: 1, maxLength: TEXT_MAX, pattern: PRINTABLE, description };
}

/** Vendor and model are shown beside the name, so they follow the same rule (also stored trimmed and NFC). */
function optionalLabel(description: string): JsonSchema {
  return { type: ['string', 'null'], minLength: 1, maxLength: TEXT_MAX, format: NAME_FORMAT, description: `${description} ${NAME_RULE}.` };
}

/** The fields every printer has besides its connection block, as clients send them. */
export const commonInputProperties: Record<string, JsonSchema> = {
  name: nameSchema,
  type: { type: 'string', enum: printerTypeNames(), description: 'Printer type; decides the fields of `connection`.' },
  vendor: optionalLabel('The maker, for types whose maker is not fixed (`bambu-lan` is always Bambu Lab).'),
  model: optionalLabel('Printer model, e.g. `P1S` or `MK3S+`.'),
  printer_profile: optionalText('Id of the slicer printer profile used for this printer.'),
  enabled: { type: 'boolean', description: 'Disabled printers keep their settings but are not connected. Default true.' },
};

function withNull(schema: JsonSchema): JsonSchema {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return { ...schema, type: [...types, 'null'] };
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return (schema.properties ?? {}) as Record<string, JsonSchema>;
}

function requiredOf(schema: JsonSchema): string[] {
  return (schema.required ?? []) as string[];
}

/**
 * A connection block as PUT takes it: every field optional (merged over the stored block),
 * secrets may be `***` to keep the stored value, optional fields may be null to clear them, and
 * the `<secret>_set` flags of a response are accepted and ignored so a block can round-trip.
 */
export function connectionPatchSchema(definition: PrinterTypeDefinition): JsonSchema {
  const required = requiredOf(definition.connectionSchema);
  const properties: Record<string, JsonSchema> = {};
  for (const [field, schema] of Object.entries(propertiesOf(definition.connectionSchema))) {
    if (definition.secrets.includes(field)) {
      properties[field] = { anyOf: [schema, { const: SECRET_MASK, description: 'Keeps the stored value.' }] };
      properties[`${field}_set`] = { type: 'boolean', description: 'Read-only; ignored.' };
    } else {
      properties[field] = required.includes(field) ? schema : withNull(schema);
    }
  }
  return { type: 'object', additionalProperties: false, properties, description: `${definition.type}: ${definition.label}` };
}

/** A connection block as responses show it: secrets masked. */
export function connectionViewSchema(definition: PrinterTypeDefinition): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [field, schema] of Object.entries(propertiesOf(definition.connectionSchema))) {
    if (definition.secrets.includes(field)) {
      properties[field] = { type: 'string', const: SECRET_MASK, description: 'Present when the secret is set; never the value.' };
      properties[`${field}_set`] = { type: 'boolean' };
      required.push(`${field}_set`);
    } else {
      properties[field] = schema;
      if (requiredOf(definition.connectionSchema).includes(field) || field in definition.defaults) required.push(field);
    }
  }
  return { type: 'object', required, additionalProperties: false, properties, description: `${definition.type}: ${definition.label}` };
}

/**
 * POST body: the common fields, then one branch per type tying `type` to its connection block.
 * Common fields are checked first, so their errors are never hidden behind the branch choice.
 */
export function printerCreateSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['name', 'type', 'connection'],
    additionalProperties: false,
    properties: { ...commonInputProperties, connection: { type: 'object', description: 'Fields per `type`; see the branches.' } },
    oneOf: printerFamilies().map((definition) => ({
      type: 'object',
      description: definition.label,
      properties: { type: { const: definition.type }, connection: definition.connectionSchema },
    })),
  };
}

/** PUT body: any subset of the fields. A changed `type` needs a complete `connection`. */
export function printerPatchSchema(): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...commonInputProperties,
      connection: {
        description: 'Merged over the stored block when the type stays; complete when the type changes.',
        anyOf: printerFamilies().map(connectionPatchSchema),
      },
    },
  };
}

const isoTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableText: JsonSchema = { type: ['string', 'null'] };

export const printerViewSchema: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'type',
    'vendor',
    'model',
    'printer_profile',
    'enabled',
    'connection',
    'created_at',
    'updated_at',
    'identity',
    'online',
    'state',
    'status',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[0-9a-f]{16}$' },
    name: { type: 'string' },
    type: { type: 'string' },
    vendor: { ...nullableText, description: 'The type’s fixed maker, else the configured one, else what the firmware reported.' },
    model: nullableText,
    printer_profile: nullableText,
    enabled: { type: 'boolean' },
    connection: { oneOf: printerFamilies().map(connectionViewSchema) },
    created_at: isoTime,
    updated_at: isoTime,
    identity: {
      description: 'What the printer reported about itself; null until a driver has talked to it.',
      oneOf: [
        {
          type: 'object',
          required: ['vendor', 'model', 'firmware'],
          additionalProperties: false,
          properties: { vendor: nullableText, model: nullableText, firmware: nullableText },
        },
        { type: 'null' },
      ],
    },
    online: { type: 'boolean' },
    state: { type: 'string', enum: [...PRINTER_STATES] },
    status: printerStatusSchema,
  },
};

export const printerListSchema: JsonSchema = {
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: { items: { type: 'array', items: printerViewSchema } },
};

export const printerIdParams: Record<string, JsonSchema> = {
  id: { type: 'string', description: 'Printer id (16 hex digits).' },
};

/** `GET /api/printer-types`: each family's connection block as a JSON schema, for clients that build forms from it. */
export const printerTypeListSchema: JsonSchema = {
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'label', 'fixed_vendor', 'connection', 'defaults', 'secrets'],
        additionalProperties: false,
        properties: {
          type: { type: 'string' },
          label: { type: 'string' },
          fixed_vendor: { ...nullableText, description: 'The maker of every printer of this type; null when the record or firmware says.' },
          connection: { type: 'object', description: 'JSON schema of the complete `connection` block, as POST takes it.' },
          defaults: { type: 'object', description: 'Values used for the fields left out.' },
          secrets: { type: 'array', items: { type: 'string' }, description: 'Fields never returned in clear (`***` and `<field>_set`).' },
        },
      },
    },
  },
};
