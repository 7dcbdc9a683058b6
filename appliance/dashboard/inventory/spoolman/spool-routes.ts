/**
 * Spoolman's `/api/v1/spool`: list (its filters, sort, limit/offset, X-Total-Count), get, add,
 * patch, delete, `use` (use_weight or use_length) and `measure` (gross weight on a scale).
 */
import type { Logger } from '../../../common/logger.js';
import { Reply, type RouteSpec } from '../../http/route.js';
import { blankSpool, createSpoolRecord } from '../catalog.js';
import type { Inventory } from '../inventory.js';
import type { LocationNames } from '../locations/storage.js';
import { capUsed, gramsOfLength, type InventoryData, type SpoolRecord } from '../records.js';
import type { SpoolmanAccess } from './access.js';
import { badRequest, intParam, notFound } from './errors.js';
import { booleanQuery, matchesIds, matchesTerms, mergeExtra, readJsonBody, sortAndPage } from './input.js';
import { messageSchema, v1Route } from './route-kit.js';
import { spoolCreate, spoolMeasure, spoolUpdate, spoolUse } from './schemas.js';
import { spoolJson, type Json } from './shapes.js';

const FILTERS = ['filament.name', 'filament.id', 'filament.material', 'filament.vendor.name', 'filament.vendor.id', 'location', 'lot_nr'];
const OLD_FILTERS = ['filament_name', 'filament_id', 'filament_material', 'vendor_name', 'vendor_id'];
const one = (description: string) => ({ description, schema: { type: 'object' } });

function findSpool(data: InventoryData, id: number): SpoolRecord {
  const spool = data.spools.find((s) => s.id === id);
  if (!spool) throw notFound('spool', id);
  return spool;
}

/**
 * Spoolman's `location` onto a record: the name of a storage location (case-blind) puts the spool
 * there (`location_id`, no free text); other text is kept as Spoolman keeps it, outside any
 * storage location; null clears both.
 */
function applyLocation(spool: SpoolRecord, location: unknown, names: LocationNames | null): void {
  const id = typeof location === 'string' ? (names?.idOf(location) ?? null) : null;
  spool.location_id = id;
  spool.location = id === null ? ((location as string | null) ?? null) : null;
}

/** Spoolman's spool fields onto a record: weights (used or remaining, capped), times, `extra` merged, the location. */
function applySpoolFields(data: InventoryData, spool: SpoolRecord, body: Json, now: string, names: LocationNames | null): void {
  if (body.used_weight != null && body.remaining_weight != null) throw badRequest('Only specify either remaining_weight or used_weight.');
  if (body.filament_id !== undefined && !data.filaments.some((f) => f.id === body.filament_id))
    throw notFound('filament', body.filament_id as number);
  const { extra, remaining_weight, used_weight, initial_weight, first_used, last_used, lot_nr, location, ...plain } = body;
  Object.assign(spool, plain);
  if (location !== undefined) applyLocation(spool, location, names);
  if (lot_nr !== undefined) spool.lot_nr = lot_nr as string | null;
  if (initial_weight != null) spool.initial_weight = initial_weight as number;
  if (used_weight != null) spool.used_weight = used_weight as number;
  if (remaining_weight != null) spool.used_weight = spool.initial_weight - (remaining_weight as number);
  spool.used_weight = capUsed(spool.used_weight, spool.initial_weight);
  if (first_used !== undefined) spool.first_used = first_used === null ? null : new Date(first_used as string).toISOString();
  if (last_used !== undefined) spool.last_used = last_used === null ? null : new Date(last_used as string).toISOString();
  spool.extra = mergeExtra(spool.extra, extra);
  spool.updated = now;
  if (spool.archived) {
    spool.printer_id = null;
    spool.slot = null;
  }
}

export function spoolRoutes(inventory: Inventory, access: SpoolmanAccess, log: Logger, names: LocationNames | null): RouteSpec[] {
  const route = (spec: Parameters<typeof v1Route>[2]) => v1Route(access, log, spec);
  const data = () => inventory.data as InventoryData;
  const json = (spool: SpoolRecord) => spoolJson(data(), spool, names);
  const current = (id: number) => {
    const spool = data().spools.find((s) => s.id === id);
    if (!spool) throw notFound('spool', id);
    return json(spool);
  };
  return [
    route({
      method: 'get',
      path: '/spool',
      level: 'view',
      summary: 'Find spools (Spoolman)',
      description: 'Archived spools only with allow_archived=true. Text filters: comma-separated terms, `"…"` exact, empty = not set.',
      query: [...FILTERS, ...OLD_FILTERS, 'allow_archived', 'sort', 'limit', 'offset'],
      ok: { description: 'Spools; the total before paging in X-Total-Count.', schema: { type: 'array', items: { type: 'object' } } },
      handler({ query }) {
        const archived = booleanQuery(query, 'allow_archived');
        const d = data();
        const items = d.spools
          .filter((s) => archived || !s.archived)
          .map(json)
          .filter((s) => {
            const filament = s.filament as Json;
            const vendor = filament.vendor as Json | undefined;
            return (
              matchesTerms(filament.name as string, query['filament.name'] ?? query.filament_name) &&
              matchesIds(filament.id as number, query['filament.id'] ?? query.filament_id, 'filament.id') &&
              matchesTerms(filament.material as string, query['filament.material'] ?? query.filament_material) &&
              matchesTerms(vendor?.name as string, query['filament.vendor.name'] ?? query.vendor_name) &&
              matchesIds(vendor?.id as number, query['filament.vendor.id'] ?? query.vendor_id, 'filament.vendor.id') &&
              matchesTerms(s.location as string, query.location) &&
              matchesTerms(s.lot_nr as string, query.lot_nr)
            );
          });
        const { page, total } = sortAndPage(items, query);
        return new Reply(200, page, { 'x-total-count': String(total) });
      },
    }),
    route({
      method: 'get',
      path: '/spool/:spool_id',
      level: 'view',
      summary: 'Get a spool (Spoolman)',
      ok: one('The spool.'),
      handler: (ctx) => current(intParam(ctx, 'spool_id')),
    }),
    route({
      method: 'post',
      path: '/spool',
      level: 'print',
      summary: 'Add a spool (Spoolman)',
      description: 'Without initial_weight the filament’s weight is used, else 1000 g (the used weight is capped at it).',
      body: spoolCreate,
      ok: one('The spool.'),
      async handler(ctx) {
        const body = await readJsonBody(ctx, spoolCreate);
        return inventory.edit((draft, now) => {
          const filament = draft.filaments.find((f) => f.id === body.filament_id);
          if (!filament) throw notFound('filament', body.filament_id as number);
          const spool = createSpoolRecord(draft, blankSpool(filament, body.initial_weight as number | null), now);
          applySpoolFields(draft, spool, body, now, names);
          return { result: spoolJson(draft, spool, names), changes: [{ resource: 'spool', type: 'added', id: spool.id }] };
        });
      },
    }),
    route({
      method: 'patch',
      path: '/spool/:spool_id',
      level: 'print',
      summary: 'Update a spool (Spoolman)',
      body: spoolUpdate,
      ok: one('The spool.'),
      async handler(ctx) {
        const id = intParam(ctx, 'spool_id');
        const body = await readJsonBody(ctx, spoolUpdate);
        if (body.filament_id === null) throw badRequest('filament_id cannot be null.');
        return inventory.edit((draft, now) => {
          const spool = findSpool(draft, id);
          applySpoolFields(draft, spool, body, now, names);
          return { result: spoolJson(draft, spool, names), changes: [{ resource: 'spool', type: 'updated', id }] };
        });
      },
    }),
    route({
      method: 'delete',
      path: '/spool/:spool_id',
      level: 'admin',
      summary: 'Delete a spool (Spoolman)',
      ok: { description: '`{"message": "Success!"}`', schema: messageSchema },
      async handler(ctx) {
        const id = intParam(ctx, 'spool_id');
        return inventory.edit((draft) => {
          const spool = findSpool(draft, id);
          draft.spools = draft.spools.filter((s) => s.id !== id);
          return { result: { message: 'Success!' }, changes: [{ resource: 'spool', type: 'deleted', id, removed: spool }] };
        });
      },
    }),
    route({
      method: 'put',
      path: '/spool/:spool_id/use',
      level: 'print',
      summary: 'Use filament of a spool (Spoolman): use_weight (g) or use_length (mm)',
      description: 'A negative amount gives filament back; the used weight stays within 0 and the initial weight.',
      body: spoolUse,
      ok: one('The spool.'),
      async handler(ctx) {
        const id = intParam(ctx, 'spool_id');
        const body = await readJsonBody(ctx, spoolUse);
        const { use_weight: weight, use_length: length } = body as { use_weight?: number | null; use_length?: number | null };
        if (weight != null && length != null) throw badRequest('Only specify either use_weight or use_length.');
        if (weight == null && length == null) throw badRequest('Either use_weight or use_length must be specified.');
        const spool = findSpool(data(), id);
        const filament = data().filaments.find((f) => f.id === spool.filament_id);
        const grams = weight ?? gramsOfLength(length as number, filament?.diameter ?? 1.75, filament?.density ?? 1.24);
        if ((await inventory.useGrams(id, grams)) === null) throw notFound('spool', id);
        return current(id);
      },
    }),
    route({
      method: 'put',
      path: '/spool/:spool_id/measure',
      level: 'print',
      summary: 'Weigh a spool (Spoolman): gross weight → used weight',
      body: spoolMeasure,
      ok: one('The spool.'),
      async handler(ctx) {
        const id = intParam(ctx, 'spool_id');
        const body = await readJsonBody(ctx, spoolMeasure);
        if ((await inventory.measure(id, body.weight as number)) === null) throw notFound('spool', id);
        return current(id);
      },
    }),
  ];
}
