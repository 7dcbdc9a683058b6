/**
 * GET /api/profiles (filters kind and vendor) and GET /api/profiles/:id. Rows are full profiles
 * with resolved settings, as the contract's Profile has them; the serialized lists are cached
 * until the catalogue is reloaded, so repeated listings cost no resolving.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { queryParam } from '../../../common/query.js';
import type { ProfileCatalogue } from '../../profiles/catalogue.js';
import type { ProfileKind } from '../../profiles/types.js';
import type { RouteInstaller } from '../context.js';

const KINDS = ['printer', 'filament', 'process', 'all'] as const;
/** Distinct filters cached at once; vendor is free text, so the cache must not grow without end. */
const CACHE_LIMIT = 64;

function profileListJson(catalogue: ProfileCatalogue, kind: ProfileKind | 'all', vendor: string | undefined): string {
  const rows = catalogue.list({ kind, ...(vendor === undefined ? {} : { vendor }) }).map((s) => catalogue.get(s.id));
  return JSON.stringify({ profiles: rows });
}

export const installProfileRoutes: RouteInstaller = (app, ctx) => {
  const cache = new Map<string, string>();
  let cachedGeneration = ctx.config.generation;

  app.get('/api/profiles', (req, res) => {
    const kindText = queryParam(req, 'kind')?.trim().toLowerCase() || 'all';
    if (!(KINDS as readonly string[]).includes(kindText)) {
      throw new AppError(ErrorCode.badRequest, 400, `query parameter "kind" must be one of ${KINDS.join(', ')}`);
    }
    const kind = kindText as ProfileKind | 'all';
    const vendor = queryParam(req, 'vendor')?.trim() || undefined;
    if (cachedGeneration !== ctx.config.generation || cache.size >= CACHE_LIMIT) {
      cache.clear();
      cachedGeneration = ctx.config.generation;
    }
    const key = `${kind}\n${vendor?.toLowerCase() ?? ''}`;
    let body = cache.get(key);
    if (body === undefined) {
      body = profileListJson(ctx.config.catalogue, kind, vendor);
      cache.set(key, body);
    }
    res.header('content-type', 'application/json').send(body);
  });

  app.get('/api/profiles/:id', (req, res) => {
    res.json(ctx.config.catalogue.get(req.path_parameters.id));
  });
};
