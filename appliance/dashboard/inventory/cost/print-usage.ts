/**
 * The cost estimate's UsageLookup over the print history (what a print used) and the queue (what a
 * job's file says a copy will use). services.ts builds it; only this module knows both shapes.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { PrintHistory } from '../../history/history.js';
import type { QueueService } from '../../queue/queue-service.js';
import type { PrintUsage, UsageLookup } from './usage-lookup.js';

function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
}

/** The one value when all are the same, else null. */
function only<T>(values: readonly T[]): T | null {
  return values.length > 0 && values.every((v) => v === values[0]) ? values[0] : null;
}

export function printUsage(history: PrintHistory, queue: QueueService): UsageLookup {
  return {
    history(id): PrintUsage | null {
      const record = orNull(() => history.record(id));
      if (record === null) return null;
      return {
        grams: record.filament.reduce((sum, f) => sum + (f.grams ?? 0), 0),
        duration_s: record.duration_s ?? 0,
        printer_id: record.printer_id,
        spool_id: only(record.filament.map((f) => f.spool_id)),
        material: only(record.filament.map((f) => f.material)),
      };
    },
    queueJob(id): PrintUsage | null {
      const job = orNull(() => queue.get(id));
      if (job === null) return null;
      const grams = job.plan.amounts.map((a) => a.grams);
      if (grams.length === 0 || grams.some((g) => g === null) || job.plan.estimate_s === null) {
        throw new AppError(
          ErrorCode.validation,
          422,
          `queue job ${id} does not say how much filament and time a copy takes (its file carries no slicer estimate); give grams and print_time_s`,
        );
      }
      return {
        grams: grams.reduce<number>((sum, g) => sum + (g ?? 0), 0),
        duration_s: job.plan.estimate_s,
        printer_id: job.requirements.printer_ids.length === 1 ? job.requirements.printer_ids[0] : null,
        spool_id: null,
        material: only(job.requirements.filaments.map((f) => f.material)),
      };
    },
  };
}
