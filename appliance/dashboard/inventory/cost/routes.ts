/**
 * Cost estimates (view: they change nothing) for one print or a batch, and the per-printer power
 * table they use (admin changes it, like the settings).
 */
import type { JsonSchema, RouteSpec } from '../../http/route.js';
import { SPOOL_ID_SCHEMA } from '../labels/spool-lookup.js';
import type { CostEstimator, Estimate, EstimateInput } from './estimate.js';
import type { PrinterWatts } from './printer-watts.js';

export const BATCH_MAX_ITEMS = 100;
const MAX_GRAMS = 100_000;
/** 30 days: longer than any single print. */
const MAX_PRINT_TIME_S = 30 * 24 * 3600;

const errorSchemaRef = { $ref: '#/components/schemas/Error' };
const printerIdSchema: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', description: 'A printer id.' };
const referenceId: JsonSchema = { type: 'string', minLength: 1, maxLength: 100 };

const inputProperties: Record<string, JsonSchema> = {
  grams: { type: 'number', minimum: 0, maximum: MAX_GRAMS, description: 'Filament used, all tools together.' },
  spool_id: { ...SPOOL_ID_SCHEMA, description: 'Price by this spool (price / initial weight).' },
  material: { type: 'string', minLength: 1, maxLength: 64, description: 'Price by the mean price per kg of this material in stock.' },
  print_time_s: { type: 'integer', minimum: 0, maximum: MAX_PRINT_TIME_S, description: 'Print time for electricity and machine time; default 0.' },
  printer_id: { ...printerIdSchema, description: 'The printer whose power to use; default inventory.printer_watts.' },
  history_id: { ...referenceId, description: 'Take grams, time, printer (and spool) from this print history record.' },
  queue_id: { ...referenceId, description: 'Take them from this queue job (the slicer estimate).' },
};

const itemSchema: JsonSchema = { type: 'object', additionalProperties: false, properties: inputProperties };

const money = { type: 'number' };
export const estimateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'grams',
    'print_time_s',
    'printer_id',
    'spool_id',
    'material',
    'price_per_kg',
    'filament_cost',
    'watts',
    'kwh',
    'electricity_price_kwh',
    'electricity_cost',
    'machine_hour_rate',
    'machine_cost',
    'total',
    'currency',
    'sources',
  ],
  properties: {
    grams: { type: 'number' },
    print_time_s: { type: 'integer' },
    printer_id: { type: ['string', 'null'] },
    spool_id: { type: ['integer', 'null'] },
    material: { type: ['string', 'null'] },
    price_per_kg: { type: ['number', 'null'], description: 'Null when neither the spool nor the stock gives a price.' },
    filament_cost: { type: ['number', 'null'] },
    watts: { type: 'number' },
    kwh: { type: 'number' },
    electricity_price_kwh: money,
    electricity_cost: money,
    machine_hour_rate: money,
    machine_cost: money,
    total: { type: 'number', description: 'filament_cost (0 when null) + electricity_cost + machine_cost.' },
    currency: { type: 'string' },
    sources: {
      type: 'object',
      additionalProperties: false,
      required: ['usage', 'filament', 'spools_averaged', 'watts'],
      properties: {
        usage: { type: 'string', enum: ['request', 'history', 'queue'] },
        filament: { type: 'string', enum: ['spool', 'material_average', 'none'] },
        spools_averaged: { type: 'integer', minimum: 0 },
        watts: { type: 'string', enum: ['printer', 'default'] },
      },
    },
  },
};

const FORMULA =
  "filament_cost = grams / 1000 × price_per_kg (the spool's price / initial weight, or the mean of the material's spools in stock); " +
  'kwh = watts × print_time_s / 3.6e6; electricity_cost = kwh × inventory.electricity_price_kwh; ' +
  'machine_cost = print_time_s / 3600 × inventory.machine_hour_rate. Give exactly one of grams, history_id and queue_id.';

export function costRoutes(estimator: CostEstimator, watts: PrinterWatts, tag: string): RouteSpec[] {
  const invalid = { description: 'The input is not valid (ERR_VALIDATION), or a reference cannot be resolved here.', schema: errorSchemaRef };
  const notFound = { description: 'No such spool, history record or queue job (ERR_NOT_FOUND).', schema: errorSchemaRef };
  return [
    {
      method: 'get',
      path: '/api/inventory/cost-estimate',
      level: 'view',
      tag,
      summary: 'Estimate the cost of one print',
      description: FORMULA,
      query: inputProperties,
      responses: { 200: { description: 'Every figure of the estimate.', schema: estimateSchema }, 400: invalid, 404: notFound },
      handler({ query: q }) {
        const input: EstimateInput = {};
        for (const key of ['grams', 'spool_id', 'print_time_s'] as const) if (q[key] !== undefined) input[key] = Number(q[key]);
        for (const key of ['material', 'printer_id', 'history_id', 'queue_id'] as const) if (q[key] !== undefined) input[key] = q[key];
        return estimator.estimate(input, 'query');
      },
    },
    {
      method: 'post',
      path: '/api/inventory/cost-estimate/batch',
      level: 'view',
      tag,
      summary: 'Estimate the cost of several prints',
      description: `At most ${BATCH_MAX_ITEMS} items, each as the single estimate's query. One bad item fails the whole batch, naming it. ${FORMULA}`,
      body: { kind: 'json', schema: { type: 'array', minItems: 1, maxItems: BATCH_MAX_ITEMS, items: itemSchema }, maxBytes: 64 * 1024 },
      responses: {
        200: {
          description: 'Each estimate, in order, and their sum.',
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['items', 'total', 'currency'],
            properties: { items: { type: 'array', items: estimateSchema }, total: { type: 'number' }, currency: { type: 'string' } },
          },
        },
        400: invalid,
        404: notFound,
      },
      handler({ body }) {
        const items: Estimate[] = (body as EstimateInput[]).map((item, i) => estimator.estimate(item, `body/${i}`));
        const total = Math.round(items.reduce((sum, e) => sum + e.total, 0) * 10_000) / 10_000;
        return { items, total, currency: items[0].currency };
      },
    },
    {
      method: 'get',
      path: '/api/inventory/printer-watts',
      level: 'view',
      tag,
      summary: 'Printers with a power of their own for cost estimates',
      responses: {
        200: {
          description: 'Watts by printer id; the others use inventory.printer_watts.',
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['printers'],
            properties: { printers: { type: 'object', additionalProperties: { type: 'number' } } },
          },
        },
      },
      handler: () => ({ printers: watts.all() }),
    },
    {
      method: 'put',
      path: '/api/inventory/printer-watts/:printer_id',
      level: 'admin',
      tag,
      summary: "Set a printer's power for cost estimates",
      params: { printer_id: printerIdSchema },
      body: {
        kind: 'json',
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['watts'],
          properties: { watts: { type: 'number', minimum: 0, maximum: 100_000 } },
        },
        maxBytes: 1024,
      },
      responses: { 204: { description: 'Set.' }, 400: invalid },
      async handler({ params, body }) {
        await watts.set(params.printer_id, (body as { watts: number }).watts);
      },
    },
    {
      method: 'delete',
      path: '/api/inventory/printer-watts/:printer_id',
      level: 'admin',
      tag,
      summary: "Return a printer's power to the default",
      params: { printer_id: printerIdSchema },
      responses: {
        204: { description: 'Removed.' },
        404: { description: 'The printer has no power of its own (ERR_NOT_FOUND).', schema: errorSchemaRef },
      },
      async handler({ params }) {
        await watts.remove(params.printer_id);
      },
    },
  ];
}
