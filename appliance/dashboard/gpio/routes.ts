/**
 * The GPIO API: the pins with their roles and levels (view), switching a power relay, the pin
 * map (read: view; replace: admin) and the status LED's override (admin).
 */
import type { RouteSpec } from '../http/route.js';
import type { GpioService } from './gpio-service.js';
import type { LedPattern } from './status-led.js';
import {
  configBodySchema,
  configSchema,
  errorSchemaRef,
  gpioViewSchema,
  ledBodySchema,
  ledStateSchema,
  pinViewSchema,
  switchBodySchema,
} from './schemas.js';

export const TAG = 'gpio';

export function gpioRoutes(gpio: GpioService): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/hardware/gpio',
      level: 'view',
      tag: TAG,
      summary: 'The GPIO pins, their roles and levels',
      description:
        'Whether the box has GPIO (`available`; `problem` says why not, or why gpio.json was not applied), the chip of the header ' +
        "pins with its base, each configured pin with its level, its problem if it does not work, a power relay's cycle, and the " +
        "status LED's pattern.",
      responses: { 200: { description: 'The pins.', schema: gpioViewSchema } },
      handler: () => gpio.view(),
    },
    {
      method: 'post',
      path: '/api/hardware/gpio/:pin',
      level: 'admin',
      tag: TAG,
      summary: 'Switch a power relay',
      description: 'Switches the power relay on this BCM pin on or off; a pending switch-off after a print is cancelled.',
      params: { pin: { type: 'string', pattern: '^[0-9]{1,2}$', description: 'BCM number' } },
      body: { kind: 'json', schema: switchBodySchema },
      responses: {
        200: { description: 'The pin after the switch.', schema: pinViewSchema },
        404: { description: 'The pin is not in the pin map (ERR_NOT_FOUND).', schema: errorSchemaRef },
        409: { description: 'The pin is not a power relay (ERR_CONFLICT).', schema: errorSchemaRef },
        503: { description: 'The pin does not work: no GPIO, or its line could not be exported (ERR_UNAVAILABLE).', schema: errorSchemaRef },
      },
      handler: ({ params, body, principal }) => gpio.switchPin(Number(params.pin), (body as { on: boolean }).on, principal?.name ?? 'an admin'),
    },
    {
      method: 'get',
      path: '/api/hardware/gpio/config',
      level: 'view',
      tag: TAG,
      summary: 'The pin map',
      description: 'Which pin does what, as stored in gpio.json, with the defaults filled in.',
      responses: { 200: { description: 'The pin map.', schema: configSchema } },
      handler: () => gpio.config(),
    },
    {
      method: 'put',
      path: '/api/hardware/gpio/config',
      level: 'admin',
      tag: TAG,
      summary: 'Replace the pin map',
      description:
        'Checks every entry (each error names the entry, the pin and the role), stores gpio.json and applies it at once: the old ' +
        'lines are released, the new ones exported.',
      body: { kind: 'json', schema: configBodySchema },
      responses: {
        200: { description: 'The pin map applied.', schema: configSchema },
        400: { description: 'An entry is not valid (ERR_VALIDATION); `details` names each.', schema: errorSchemaRef },
      },
      handler: ({ body }) => gpio.setConfig(body),
    },
    {
      method: 'put',
      path: '/api/hardware/gpio/led',
      level: 'admin',
      tag: TAG,
      summary: "Override the status LED's pattern",
      description: 'Shows a pattern whatever the printers do (an update script shows `updating`), or follows the printers again (`null`).',
      body: { kind: 'json', schema: ledBodySchema },
      responses: {
        200: { description: 'The LED now.', schema: ledStateSchema },
        409: { description: 'There is no working status_led pin (ERR_CONFLICT).', schema: errorSchemaRef },
      },
      handler: ({ body }) => gpio.setLedOverride((body as { override: LedPattern | null }).override),
    },
  ];
}
