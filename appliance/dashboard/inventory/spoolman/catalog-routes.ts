/** Spoolman's `/api/v1/vendor` and `/api/v1/filament`: list (filters, sort, paging), get, add, patch, delete. */
import type { Logger } from '../../../common/logger.js';
import { Reply, type RouteSpec } from '../../http/route.js';
import { newFilament } from '../catalog.js';
import type { Inventory } from '../inventory.js';
import { storedColor } from '../materials.js';
import type { FilamentRecord, InventoryData, VendorRecord } from '../records.js';
import type { SpoolmanAccess } from './access.js';
import { badRequest, intParam, notFound, SpoolmanError } from './errors.js';
import { matchesIds, matchesTerms, mergeExtra, readJsonBody, sortAndPage } from './input.js';
import { messageSchema, v1Route } from './route-kit.js';
import { filamentCreate, filamentUpdate, vendorCreate, vendorUpdate } from './schemas.js';
import { filamentJson, vendorJson, type Json } from './shapes.js';

const PAGING = ['sort', 'limit', 'offset'];
const list = (description: string) => ({ description, schema: { type: 'array', items: { type: 'object' } } });
const one = (description: string) => ({ description, schema: { type: 'object' } });

function findVendor(data: InventoryData, id: number): VendorRecord {
  const vendor = data.vendors.find((v) => v.id === id);
  if (!vendor) throw notFound('vendor', id);
  return vendor;
}

function findFilament(data: InventoryData, id: number): FilamentRecord {
  const filament = data.filaments.find((f) => f.id === id);
  if (!filament) throw notFound('filament', id);
  return filament;
}

/** Body fields onto a filament record: colours kept as Spoolman keeps them, `extra` merged. */
function applyFilamentFields(data: InventoryData, filament: FilamentRecord, body: Json): void {
  if (body.vendor_id !== undefined && body.vendor_id !== null) findVendor(data, body.vendor_id as number);
  const { extra, color_hex, multi_color_hexes, ...plain } = body;
  Object.assign(filament, plain);
  if (color_hex !== undefined) filament.color_hex = color_hex === null ? null : storedColor(color_hex as string);
  if (multi_color_hexes !== undefined) {
    filament.multi_color_hexes =
      multi_color_hexes === null
        ? null
        : (multi_color_hexes as string)
            .split(',')
            .map((c) => storedColor(c))
            .join(',');
  }
  filament.extra = mergeExtra(filament.extra, extra);
}

export function catalogRoutes(inventory: Inventory, access: SpoolmanAccess, log: Logger): RouteSpec[] {
  const route = (spec: Parameters<typeof v1Route>[2]) => v1Route(access, log, spec);
  const data = () => inventory.data as InventoryData;
  return [
    route({
      method: 'get',
      path: '/vendor',
      level: 'view',
      summary: 'Find vendors (Spoolman)',
      query: ['name', 'external_id', ...PAGING],
      ok: list('Vendors; the total before paging in X-Total-Count.'),
      handler({ query }) {
        const items = data()
          .vendors.filter((v) => matchesTerms(v.name, query.name) && matchesTerms(v.external_id, query.external_id))
          .map(vendorJson);
        const { page, total } = sortAndPage(items, query);
        return new Reply(200, page, { 'x-total-count': String(total) });
      },
    }),
    route({
      method: 'get',
      path: '/vendor/:vendor_id',
      level: 'view',
      summary: 'Get a vendor (Spoolman)',
      ok: one('The vendor.'),
      handler: (ctx) => vendorJson(findVendor(data(), intParam(ctx, 'vendor_id'))),
    }),
    route({
      method: 'post',
      path: '/vendor',
      level: 'print',
      summary: 'Add a vendor (Spoolman)',
      body: vendorCreate,
      ok: one('The vendor.'),
      async handler(ctx) {
        const body = await readJsonBody(ctx, vendorCreate);
        return inventory.edit((draft, now) => {
          const vendor: VendorRecord = {
            id: draft.next_vendor_id++,
            registered: now,
            name: '',
            comment: null,
            empty_spool_weight: null,
            external_id: null,
            extra: {},
          };
          const { extra, ...plain } = body;
          Object.assign(vendor, plain, { extra: mergeExtra({}, extra) });
          draft.vendors.push(vendor);
          return { result: vendorJson(vendor), changes: [{ resource: 'vendor', type: 'added', id: vendor.id }] };
        });
      },
    }),
    route({
      method: 'patch',
      path: '/vendor/:vendor_id',
      level: 'print',
      summary: 'Update a vendor (Spoolman)',
      body: vendorUpdate,
      ok: one('The vendor.'),
      async handler(ctx) {
        const id = intParam(ctx, 'vendor_id');
        const body = await readJsonBody(ctx, vendorUpdate);
        return inventory.edit((draft) => {
          const vendor = findVendor(draft, id);
          const { extra, ...plain } = body;
          Object.assign(vendor, plain, { extra: mergeExtra(vendor.extra, extra) });
          return { result: vendorJson(vendor), changes: [{ resource: 'vendor', type: 'updated', id }] };
        });
      },
    }),
    route({
      method: 'delete',
      path: '/vendor/:vendor_id',
      level: 'admin',
      summary: 'Delete a vendor (Spoolman); its filaments keep no vendor',
      ok: { description: '`{"message": "Success!"}`', schema: messageSchema },
      async handler(ctx) {
        const id = intParam(ctx, 'vendor_id');
        return inventory.edit((draft) => {
          const vendor = findVendor(draft, id);
          draft.vendors = draft.vendors.filter((v) => v.id !== id);
          const orphaned = draft.filaments.filter((f) => f.vendor_id === id);
          for (const filament of orphaned) filament.vendor_id = null;
          return {
            result: { message: 'Success!' },
            changes: [
              { resource: 'vendor', type: 'deleted', id, removed: vendor },
              ...orphaned.map((f) => ({ resource: 'filament' as const, type: 'updated' as const, id: f.id })),
            ],
          };
        });
      },
    }),
    route({
      method: 'get',
      path: '/filament',
      level: 'view',
      summary: 'Find filaments (Spoolman)',
      query: ['vendor.name', 'vendor.id', 'name', 'material', 'article_number', 'external_id', 'vendor_name', 'vendor_id', ...PAGING],
      ok: list('Filaments; the total before paging in X-Total-Count.'),
      handler({ query }) {
        const d = data();
        const items = d.filaments
          .filter((f) => {
            const vendor = d.vendors.find((v) => v.id === f.vendor_id);
            return (
              matchesTerms(vendor?.name, query['vendor.name'] ?? query.vendor_name) &&
              matchesIds(f.vendor_id, query['vendor.id'] ?? query.vendor_id, 'vendor.id') &&
              matchesTerms(f.name, query.name) &&
              matchesTerms(f.material, query.material) &&
              matchesTerms(f.article_number, query.article_number) &&
              matchesTerms(f.external_id, query.external_id)
            );
          })
          .map((f) => filamentJson(d, f));
        const { page, total } = sortAndPage(items, query);
        return new Reply(200, page, { 'x-total-count': String(total) });
      },
    }),
    route({
      method: 'get',
      path: '/filament/:filament_id',
      level: 'view',
      summary: 'Get a filament (Spoolman)',
      ok: one('The filament.'),
      handler: (ctx) => filamentJson(data(), findFilament(data(), intParam(ctx, 'filament_id'))),
    }),
    route({
      method: 'post',
      path: '/filament',
      level: 'print',
      summary: 'Add a filament (Spoolman)',
      body: filamentCreate,
      ok: one('The filament.'),
      async handler(ctx) {
        const body = await readJsonBody(ctx, filamentCreate);
        return inventory.edit((draft, now) => {
          const filament = newFilament(draft, { density: body.density as number, diameter: body.diameter as number }, now);
          applyFilamentFields(draft, filament, body);
          return { result: filamentJson(draft, filament), changes: [{ resource: 'filament', type: 'added', id: filament.id }] };
        });
      },
    }),
    route({
      method: 'patch',
      path: '/filament/:filament_id',
      level: 'print',
      summary: 'Update a filament (Spoolman); every spool of it changes with it',
      body: filamentUpdate,
      ok: one('The filament.'),
      async handler(ctx) {
        const id = intParam(ctx, 'filament_id');
        const body = await readJsonBody(ctx, filamentUpdate);
        for (const key of ['density', 'diameter']) if (body[key] === null) throw badRequest(`${key} cannot be null.`);
        return inventory.edit((draft) => {
          const filament = findFilament(draft, id);
          applyFilamentFields(draft, filament, body);
          return { result: filamentJson(draft, filament), changes: [{ resource: 'filament', type: 'updated', id }] };
        });
      },
    }),
    route({
      method: 'delete',
      path: '/filament/:filament_id',
      level: 'admin',
      summary: 'Delete a filament (Spoolman); refused (403) while spools use it',
      ok: { description: '`{"message": "Success!"}`', schema: messageSchema },
      async handler(ctx) {
        const id = intParam(ctx, 'filament_id');
        return inventory.edit((draft) => {
          const filament = findFilament(draft, id);
          if (draft.spools.some((s) => s.filament_id === id)) throw new SpoolmanError(403, 'Failed to delete filament: spools of it still exist.');
          draft.filaments = draft.filaments.filter((f) => f.id !== id);
          return { result: { message: 'Success!' }, changes: [{ resource: 'filament', type: 'deleted', id, removed: filament }] };
        });
      },
    }),
  ];
}
