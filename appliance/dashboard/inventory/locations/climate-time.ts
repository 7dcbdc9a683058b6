/** Times given to the climate routes: RFC 3339 with a zone, and a real calendar date. */
import { validationError } from '../../http/validate.js';

export const RFC3339 = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|z|[+-]\\d{2}:\\d{2})$';

/** Milliseconds since the epoch; a 400 naming `where` when the text is no real time (`2026-02-30T…`, hour 25). */
export function parseTime(text: string, where: string): number {
  const ms = Date.parse(text);
  const day = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  // Date.parse rolls some impossible dates over (February 30 → March 2): the day must read back the same.
  if (Number.isNaN(ms) || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text.slice(0, 10)) {
    throw validationError([{ path: where, message: 'must be a real date and time (RFC 3339)' }]);
  }
  return ms;
}
