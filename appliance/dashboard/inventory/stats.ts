/**
 * `GET /api/filaments/stats`: consumption from the use log per ISO week and per month (UTC), by
 * material, colour and vendor; the spools running low; and the value in stock (each spool's price
 * times the share of its filament still on it).
 */
import type { UseRecord } from './use-log.js';
import type { SpoolView } from './spool.js';

export interface PeriodConsumption {
  /** `2025-W07` (ISO week) or `2025-02` (month). */
  period: string;
  total_g: number;
  by_material: Record<string, number>;
  by_color: Record<string, number>;
  by_vendor: Record<string, number>;
}

export interface InventoryStats {
  consumption: { weekly: PeriodConsumption[]; monthly: PeriodConsumption[] };
  low_stock: { threshold_g: number; spools: SpoolView[] };
  stock: { spools: number; remaining_g: number; value: number; spools_without_price: number };
}

/** ISO 8601 week of a UTC time: the week with the year's first Thursday is week 1. */
export function isoWeek(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

const round = (grams: number) => Math.round(grams * 100) / 100;

function add(map: Record<string, number>, key: string, grams: number): void {
  map[key] = (map[key] ?? 0) + grams;
}

function byPeriod(uses: readonly UseRecord[], periodOf: (at: Date) => string): PeriodConsumption[] {
  const periods = new Map<string, PeriodConsumption>();
  for (const use of uses) {
    const period = periodOf(new Date(use.at));
    let entry = periods.get(period);
    if (!entry) {
      entry = { period, total_g: 0, by_material: {}, by_color: {}, by_vendor: {} };
      periods.set(period, entry);
    }
    entry.total_g += use.grams;
    add(entry.by_material, use.material || 'unknown', use.grams);
    add(entry.by_color, use.color_hex ?? 'unknown', use.grams);
    add(entry.by_vendor, use.vendor ?? 'unknown', use.grams);
  }
  const roundAll = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, round(v)]));
  return [...periods.values()]
    .sort((a, b) => a.period.localeCompare(b.period))
    .map((p) => ({
      ...p,
      total_g: round(p.total_g),
      by_material: roundAll(p.by_material),
      by_color: roundAll(p.by_color),
      by_vendor: roundAll(p.by_vendor),
    }));
}

export interface StatsRange {
  /** ISO date or time: uses from then on. */
  from?: string;
  /** ISO date or time: uses before then. */
  to?: string;
}

export function inventoryStats(uses: readonly UseRecord[], spools: readonly SpoolView[], lowStockG: number, range: StatsRange = {}): InventoryStats {
  const from = range.from === undefined ? -Infinity : Date.parse(range.from);
  const to = range.to === undefined ? Infinity : Date.parse(range.to);
  const inRange = uses.filter((u) => {
    const t = Date.parse(u.at);
    return t >= from && t < to;
  });
  const active = spools.filter((s) => !s.archived);
  const priced = active.filter((s) => s.price !== null && s.initial_weight_g > 0);
  return {
    consumption: {
      weekly: byPeriod(inRange, isoWeek),
      monthly: byPeriod(inRange, (at) => at.toISOString().slice(0, 7)),
    },
    low_stock: {
      threshold_g: lowStockG,
      spools: active.filter((s) => s.remaining_weight_g <= lowStockG).sort((a, b) => a.remaining_weight_g - b.remaining_weight_g),
    },
    stock: {
      spools: active.length,
      remaining_g: round(active.reduce((sum, s) => sum + s.remaining_weight_g, 0)),
      value: round(priced.reduce((sum, s) => sum + ((s.price as number) * s.remaining_weight_g) / s.initial_weight_g, 0)),
      spools_without_price: active.length - priced.length,
    },
  };
}
