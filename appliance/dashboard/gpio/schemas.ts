/** JSON schemas of the GPIO routes (config.ts does the checks that name the pin and role). */
import type { JsonSchema } from '../http/route.js';
import { LED_PATTERNS } from './status-led.js';
import { PIN_ROLES } from './config.js';

export const errorSchemaRef: JsonSchema = { $ref: '#/components/schemas/Error' };

const nullableString: JsonSchema = { type: ['string', 'null'] };

const chipSchema: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['label', 'base', 'ngpio'],
      properties: { label: { type: 'string' }, base: { type: 'integer' }, ngpio: { type: 'integer' } },
    },
    { type: 'null' },
  ],
};

const pinEntrySchema: JsonSchema = {
  type: 'object',
  description:
    'One pin: `pin` (BCM number 0–27), `role` and the keys of the role: `printer_id` (every role but status_led; optional for ' +
    'emergency_stop, which then stops every printer), `active_low` (default false), `debounce_ms` (inputs, 0–10000, default 50), ' +
    '`off_below_c` (power_relay, 0–300, default 50) and `off_delay_s` (power_relay, 0–86400, default 120).',
  properties: {
    pin: { type: 'integer' },
    role: { type: 'string', enum: [...PIN_ROLES] },
    printer_id: nullableString,
    active_low: { type: 'boolean' },
    debounce_ms: { type: ['integer', 'null'] },
    off_below_c: { type: ['number', 'null'] },
    off_delay_s: { type: ['integer', 'null'] },
  },
};

export const configBodySchema: JsonSchema = {
  type: 'object',
  required: ['pins'],
  properties: { pins: { type: 'array', maxItems: 64, items: { type: 'object' } } },
  description: 'The whole pin map; it replaces the one stored. Each entry as `pins.items` of the answer describes.',
};

export const configSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['pins'],
  properties: { pins: { type: 'array', items: pinEntrySchema } },
};

const ledStateSchema: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['pattern', 'override'],
      properties: {
        pattern: { type: ['string', 'null'], enum: [...LED_PATTERNS, null] },
        override: { type: ['string', 'null'], enum: [...LED_PATTERNS, null] },
      },
    },
    { type: 'null' },
  ],
};

export const pinViewSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['pin', 'kernel_number', 'role', 'printer_id', 'printer_name', 'direction', 'active_low', 'value', 'problem', 'relay'],
  properties: {
    pin: { type: 'integer', description: 'BCM number' },
    kernel_number: { type: ['integer', 'null'], description: 'the sysfs number: chip base + BCM number' },
    role: { type: 'string', enum: [...PIN_ROLES] },
    printer_id: nullableString,
    printer_name: nullableString,
    direction: { type: 'string', enum: ['in', 'out'] },
    active_low: { type: 'boolean' },
    value: { type: ['integer', 'null'], enum: [0, 1, null], description: 'logical level: 1 is active (on)' },
    problem: { ...nullableString, description: 'why the pin does not work' },
    relay: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['on', 'phase', 'hottest_c'],
          properties: {
            on: { type: 'boolean' },
            phase: { type: 'string', enum: ['idle', 'printing', 'cooling', 'cooled'] },
            hottest_c: { type: ['number', 'null'] },
          },
        },
        { type: 'null' },
      ],
    },
  },
};

export const gpioViewSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['available', 'type', 'chip', 'problem', 'led', 'pins'],
  properties: {
    available: { type: 'boolean', description: 'a GPIO chip is open' },
    type: { type: 'string' },
    chip: chipSchema,
    problem: { ...nullableString, description: 'why there is no GPIO, or why gpio.json is not applied' },
    led: ledStateSchema,
    pins: { type: 'array', items: pinViewSchema },
  },
};

export const switchBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['on'],
  properties: { on: { type: 'boolean' } },
};

export const ledBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['override'],
  properties: {
    override: {
      type: ['string', 'null'],
      enum: [...LED_PATTERNS, null],
      description: 'a pattern to show whatever the printers do; null to follow them',
    },
  },
};

export { ledStateSchema };
