/**
 * The spools loaded on a printer, for the features that only read them (the queue's matching, the
 * plan of a slice-and-send): none while the inventory is not running (its feature off, or failed
 * to start, answers 503), so a print still goes out on what the printer itself reports.
 */
import { isAppError } from '../../common/errors.js';
import type { SpoolDirectory, SpoolView } from './spool.js';

export function loadedSpoolsOf(spools: SpoolDirectory | null, printerId: string): readonly SpoolView[] {
  try {
    return spools?.loadedOn(printerId) ?? [];
  } catch (err) {
    if (isAppError(err) && err.status === 503) return [];
    throw err;
  }
}
