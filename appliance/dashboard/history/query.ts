/**
 * Which records a request asks for: filters, an order, and a page of them (by offset, or by a
 * cursor that stays right while new prints are recorded). Shared by the list, the CSV export and
 * the stats, so the three always agree on what "these prints" are.
 */
import { validationError } from '../http/validate.js';
import type { HistoryRecord, RecordState, StarterKind } from './record.js';

export const SORT_FIELDS = ['started_at', 'ended_at', 'duration'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

export interface HistoryFilter {
  printer_id?: string;
  state?: RecordState;
  started_by?: StarterKind;
  user?: string;
  job_id?: string;
  /** Started at or after this instant (ms since the epoch). */
  fromMs?: number;
  /** Started before this instant. */
  toMs?: number;
  /** Lower case; a record matches when any of its slots is of this material. */
  material?: string;
  /** Lower case; a substring of the file name. */
  q?: string;
}

export interface HistoryOrder {
  sort: SortField;
  descending: boolean;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** `from`/`to` as the API takes them: a date-time, or a date (for `to`, the whole day is included). */
function instant(text: string, name: 'from' | 'to'): number {
  const ms = Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms)) throw validationError([{ path: `query/${name}`, message: 'is not an ISO 8601 date or date-time' }]);
  return name === 'to' && DATE_ONLY.test(text) ? ms + DAY_MS : ms;
}

/** The filter of a request's (already schema-checked) query. */
export function filterFromQuery(query: Record<string, string>): HistoryFilter {
  const filter: HistoryFilter = {};
  if (query.printer_id !== undefined) filter.printer_id = query.printer_id;
  if (query.state !== undefined) filter.state = query.state as RecordState;
  if (query.started_by !== undefined) filter.started_by = query.started_by as StarterKind;
  if (query.user !== undefined) filter.user = query.user;
  if (query.job_id !== undefined) filter.job_id = query.job_id;
  if (query.from !== undefined) filter.fromMs = instant(query.from, 'from');
  if (query.to !== undefined) filter.toMs = instant(query.to, 'to');
  if (filter.fromMs !== undefined && filter.toMs !== undefined && filter.fromMs >= filter.toMs) {
    throw validationError([{ path: 'query/to', message: 'must be after from' }]);
  }
  if (query.material !== undefined) filter.material = query.material.toLowerCase();
  if (query.q !== undefined) filter.q = query.q.toLowerCase();
  return filter;
}

export function orderFromQuery(query: Record<string, string>): HistoryOrder {
  return { sort: (query.sort as SortField | undefined) ?? 'started_at', descending: (query.order ?? 'desc') === 'desc' };
}

export function matches(record: HistoryRecord, f: HistoryFilter): boolean {
  if (f.printer_id !== undefined && record.printer_id !== f.printer_id) return false;
  if (f.state !== undefined && record.state !== f.state) return false;
  if (f.started_by !== undefined && record.started_by.kind !== f.started_by) return false;
  if (f.user !== undefined && record.started_by.user !== f.user) return false;
  if (f.job_id !== undefined && record.started_by.job_id !== f.job_id) return false;
  if (f.fromMs !== undefined || f.toMs !== undefined) {
    const started = Date.parse(record.started_at);
    if (f.fromMs !== undefined && started < f.fromMs) return false;
    if (f.toMs !== undefined && started >= f.toMs) return false;
  }
  if (f.material !== undefined && !record.filament.some((s) => s.material?.toLowerCase() === f.material)) return false;
  if (f.q !== undefined && !record.file.toLowerCase().includes(f.q)) return false;
  return true;
}

type Key = string | number | null;

function keyOf(record: HistoryRecord, sort: SortField): Key {
  if (sort === 'started_at') return record.started_at;
  if (sort === 'ended_at') return record.ended_at;
  return record.duration_s;
}

/** Order of two (key, id) positions; a missing key (a print still running) comes last either way. */
function compare(a: [Key, string], b: [Key, string], descending: boolean): number {
  if (a[0] !== b[0]) {
    if (a[0] === null) return 1;
    if (b[0] === null) return -1;
    const byKey = a[0] < b[0] ? -1 : 1;
    return descending ? -byKey : byKey;
  }
  if (a[1] === b[1]) return 0;
  const byId = a[1] < b[1] ? -1 : 1;
  return descending ? -byId : byId;
}

/** The matching records in the order asked. `records` is in start order (the store's). */
export function select(records: readonly HistoryRecord[], filter: HistoryFilter, order: HistoryOrder): HistoryRecord[] {
  const found = records.filter((r) => matches(r, filter));
  if (order.sort === 'started_at') return order.descending ? found.reverse() : found;
  const keyed = found.map((r) => ({ r, key: [keyOf(r, order.sort), r.id] as [Key, string] }));
  keyed.sort((a, b) => compare(a.key, b.key, order.descending));
  return keyed.map((k) => k.r);
}

export interface Page {
  items: HistoryRecord[];
  /** Records that match the filters, on every page. */
  total: number;
  limit: number;
  /** Where this page starts among them. */
  offset: number;
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}

function encodeCursor(record: HistoryRecord, sort: SortField): string {
  return Buffer.from(JSON.stringify([sort, keyOf(record, sort), record.id])).toString('base64url');
}

function decodeCursor(cursor: string, sort: SortField): [Key, string] {
  const bad = () => validationError([{ path: 'query/cursor', message: 'is not a cursor of this listing (pass next_cursor as it came)' }]);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(value) || value.length !== 3 || value[0] !== sort || typeof value[2] !== 'string') throw bad();
  const key = value[1] as unknown;
  if (!(key === null || typeof key === 'string' || typeof key === 'number')) throw bad();
  return [key, value[2]];
}

export function paginate(ordered: readonly HistoryRecord[], order: HistoryOrder, limit: number, from: { offset?: number; cursor?: string }): Page {
  let start = from.offset ?? 0;
  if (from.cursor !== undefined) {
    const after = decodeCursor(from.cursor, order.sort);
    start = ordered.findIndex((r) => compare([keyOf(r, order.sort), r.id], after, order.descending) > 0);
    if (start === -1) start = ordered.length;
  }
  const items = ordered.slice(start, start + limit);
  const more = start + items.length < ordered.length && items.length > 0;
  return {
    items,
    total: ordered.length,
    limit,
    offset: start,
    next_cursor: more ? encodeCursor(items[items.length - 1] as HistoryRecord, order.sort) : null,
  };
}
