/**
 * Spools that expire soon, or have expired: those with an expiry date no later than `within` days
 * from today (today by the box's clock, in UTC, the same calendar the dates are stored in), oldest
 * date first. Expired ones stay in the list, marked, until someone archives them; archived spools
 * are not in stock and never listed.
 */
import type { SpoolDirectory, SpoolView } from '../spool.js';

export const DEFAULT_WITHIN_DAYS = 30;
export const MAX_WITHIN_DAYS = 3650;

const DAY_MS = 24 * 3600 * 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface ExpiringSpool {
  expiry_date: string;
  /** Days from today to the expiry date: 0 is today, negative once expired. */
  days_left: number;
  /** True when the date is before today. */
  expired: boolean;
  spool: SpoolView;
}

/** Whole days since the epoch of a `YYYY-MM-DD` date, or null when it is none. */
function dayNumber(date: string): number | null {
  if (!ISO_DATE.test(date)) return null;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) ? null : Math.round(ms / DAY_MS);
}

export function expiringSpools(spools: SpoolDirectory, withinDays: number, now: Date): { today: string; items: ExpiringSpool[] } {
  const today = now.toISOString().slice(0, 10);
  const todayNumber = dayNumber(today) as number;
  const items: ExpiringSpool[] = [];
  for (const spool of spools.list()) {
    if (spool.archived || spool.expiry_date === null) continue;
    const day = dayNumber(spool.expiry_date);
    if (day === null || day - todayNumber > withinDays) continue;
    const daysLeft = day - todayNumber;
    items.push({ expiry_date: spool.expiry_date, days_left: daysLeft, expired: daysLeft < 0, spool });
  }
  items.sort((a, b) => a.days_left - b.days_left || a.spool.id - b.spool.id);
  return { today, items };
}
