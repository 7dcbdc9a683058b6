/**
 * The history page's filters, sort and page, kept in the page's URL (a shared link or a reload
 * shows the same list) and sent as the API's query: the list, the export and the statistics take
 * the same filters.
 */
import type { Operations } from '../api/openapi.gen';

export type HistoryQuery = NonNullable<Operations['GET /api/history']['query']>;
export type ExportQuery = NonNullable<Operations['GET /api/history/export']['query']>;
export type StatsQuery = NonNullable<Operations['GET /api/history/stats']['query']>;

export const FILTER_NAMES = ['printer_id', 'state', 'user', 'from', 'to', 'material', 'q'] as const;
export const STATES = ['printing', 'finished', 'cancelled', 'failed', 'interrupted'] as const;
export const SORTS = ['started_at', 'ended_at', 'duration'] as const;
export const PAGE_SIZE = 25;

export interface PageQuery {
  filters: StatsQuery;
  sort: (typeof SORTS)[number];
  order: 'asc' | 'desc';
  offset: number;
}

export function fromUrl(query: URLSearchParams): PageQuery {
  const filters: Record<string, string> = {};
  for (const name of FILTER_NAMES) {
    const value = query.get(name);
    if (value !== null && value !== '') filters[name] = value;
  }
  const sort = SORTS.find((s) => s === query.get('sort')) ?? 'started_at';
  const offset = Math.max(0, Math.floor(Number(query.get('offset') ?? 0)) || 0);
  return { filters: filters as StatsQuery, sort, order: query.get('order') === 'asc' ? 'asc' : 'desc', offset };
}

export function toUrl(page: PageQuery): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(page.filters)) if (value !== undefined && value !== '') search.set(name, String(value));
  if (page.sort !== 'started_at') search.set('sort', page.sort);
  if (page.order !== 'desc') search.set('order', page.order);
  if (page.offset > 0) search.set('offset', String(page.offset));
  const text = search.toString();
  return text === '' ? '/history' : `/history?${text}`;
}

export function listQuery(page: PageQuery): HistoryQuery {
  return { ...page.filters, sort: page.sort, order: page.order, limit: PAGE_SIZE, offset: page.offset };
}

export function exportQuery(page: PageQuery): ExportQuery {
  return { ...page.filters, sort: page.sort, order: page.order };
}
