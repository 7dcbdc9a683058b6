/**
 * Storage locations: everyone reads them and their climate; admin manages them; a sensor or a
 * Node-RED flow posts readings with the print level (an API key of that role is the usual way).
 */
import { Reply, type RouteSpec } from '../../http/route.js';
import { MAX_READINGS_PER_LOCATION, RETENTION_DAYS } from './climate-log.js';
import { CLOCK_SKEW_MS, EXCURSION_KIND, HUMIDITY_RANGE_PCT, TEMPERATURE_RANGE_C, type ClimateInput } from './climate.js';
import { HYSTERESIS_PCT } from './humidity.js';
import type { LocationInput } from './locations.js';
import {
  climateEventSchema,
  climateInputSchema,
  climateSeriesSchema,
  dateTimeInput,
  errorSchemaRef,
  locationCreateSchema,
  locationIdSchema,
  locationUpdateSchema,
  locationViewSchema,
} from './schemas.js';
import { DEFAULT_SERIES_MS, type StorageLocations } from './storage.js';

const BODY_BYTES = 16 * 1024;

export function locationRoutes(storage: StorageLocations, tag: string): RouteSpec[] {
  const idParam = { id: locationIdSchema };
  const notFound = { description: 'No such location (ERR_NOT_FOUND).', schema: errorSchemaRef };
  const invalid = { description: 'The input is not valid (ERR_VALIDATION); `details` names the fields.', schema: errorSchemaRef };
  const taken = { description: 'Another location has this name (ERR_CONFLICT).', schema: errorSchemaRef };
  return [
    {
      method: 'get',
      path: '/api/inventory/locations',
      level: 'view',
      tag,
      summary: 'List storage locations',
      responses: {
        200: {
          description: 'Every location, with its spool count, humidity limit, latest reading and open excursion.',
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['items'],
            properties: { items: { type: 'array', items: locationViewSchema } },
          },
        },
      },
      handler: () => ({ items: storage.list() }),
    },
    {
      method: 'post',
      path: '/api/inventory/locations',
      level: 'admin',
      tag,
      summary: 'Add a storage location',
      body: { kind: 'json', schema: locationCreateSchema, maxBytes: BODY_BYTES },
      responses: { 201: { description: 'The location.', schema: locationViewSchema }, 400: invalid, 409: taken },
      async handler({ body }) {
        return new Reply(201, await storage.create(body as LocationInput & { name: string }));
      },
    },
    {
      method: 'get',
      path: '/api/inventory/locations/:id',
      level: 'view',
      tag,
      summary: 'Get a storage location',
      params: idParam,
      responses: { 200: { description: 'The location.', schema: locationViewSchema }, 404: notFound },
      handler: ({ params }) => storage.get(Number(params.id)),
    },
    {
      method: 'put',
      path: '/api/inventory/locations/:id',
      level: 'admin',
      tag,
      summary: 'Change a storage location',
      description: 'Only the fields present change; `humidity_limit_pct: null` returns to the material table.',
      params: idParam,
      body: { kind: 'json', schema: locationUpdateSchema, maxBytes: BODY_BYTES },
      responses: { 200: { description: 'The location.', schema: locationViewSchema }, 400: invalid, 404: notFound, 409: taken },
      handler: ({ params, body }) => storage.update(Number(params.id), body as LocationInput),
    },
    {
      method: 'delete',
      path: '/api/inventory/locations/:id',
      level: 'admin',
      tag,
      summary: 'Delete a storage location and its climate readings',
      params: idParam,
      responses: {
        204: { description: 'Deleted.' },
        404: notFound,
        409: { description: 'Spools are still stored there (ERR_CONFLICT); move them first.', schema: errorSchemaRef },
      },
      async handler({ params }) {
        await storage.remove(Number(params.id));
      },
    },
    {
      method: 'post',
      path: '/api/inventory/locations/:id/climate',
      level: 'print',
      tag,
      summary: 'Record a temperature and humidity reading',
      description:
        `Temperature ${TEMPERATURE_RANGE_C.min}..${TEMPERATURE_RANGE_C.max} °C, humidity ${HUMIDITY_RANGE_PCT.min}..${HUMIDITY_RANGE_PCT.max} %; ` +
        `\`at\` defaults to now, may be at most ${CLOCK_SKEW_MS / 60_000} minutes ahead and ${RETENTION_DAYS} days old. ` +
        "Published as `inventory.climate`. Humidity above the limit of the materials stored there (or the location's own) starts an " +
        `excursion and raises one \`${EXCURSION_KIND}\` notification; it ends ${HYSTERESIS_PCT} points below the limit.`,
      params: idParam,
      body: { kind: 'json', schema: climateInputSchema, maxBytes: 4096 },
      responses: { 201: { description: 'The stored reading and the state after it.', schema: climateEventSchema }, 400: invalid, 404: notFound },
      async handler({ params, body }) {
        return new Reply(201, await storage.record(Number(params.id), body as ClimateInput));
      },
    },
    {
      method: 'get',
      path: '/api/inventory/locations/:id/climate',
      level: 'view',
      tag,
      summary: 'Climate readings of a storage location',
      description:
        `Readings from \`from\` to \`to\` (both included; default the ${DEFAULT_SERIES_MS / 3_600_000} hours up to now), oldest first. ` +
        `A location keeps the last ${RETENTION_DAYS} days, at most ${MAX_READINGS_PER_LOCATION} readings.`,
      params: idParam,
      query: { from: dateTimeInput, to: dateTimeInput },
      responses: { 200: { description: 'The readings.', schema: climateSeriesSchema }, 400: invalid, 404: notFound },
      handler: ({ params, query }) => storage.series(Number(params.id), query.from, query.to),
    },
  ];
}
