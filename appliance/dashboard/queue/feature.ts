/**
 * The queue feature: the jobs, the dispatcher and the plates (queue-service.ts, which services.ts
 * makes with the printers and the inventory's spool directory) and their routes. A copy ends when
 * the print history closes the record of its print (`history.added`): history is what decides how
 * a print ended, for every printer family, so the queue follows it rather than the printers.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import type { HistoryRecord } from '../history/record.js';
import type { PrintEnd, QueueService } from './queue-service.js';
import { queueRoutes } from './routes.js';

export const QUEUE_FEATURE = 'queue';

/** The end of a queue copy's print, from its closed history record; null for other prints. */
export function printEndOf(record: HistoryRecord): PrintEnd | null {
  const { job_id: jobId, copy } = record.started_by;
  if (jobId === null || copy === null || record.state === 'printing') return null;
  return { printer_id: record.printer_id, job_id: jobId, copy, state: record.state, error: record.error };
}

export function createQueueFeature(ctx: Pick<DashboardContext, 'bus' | 'dataDir' | 'log'>, queue: QueueService): DashboardFeature {
  let unsubscribe: (() => void) | null = null;
  return {
    name: QUEUE_FEATURE,
    routes: queueRoutes(queue, ctx.dataDir),
    async start() {
      await queue.start();
      unsubscribe = ctx.bus.on('history.added', (record) => {
        const end = printEndOf(record);
        if (end)
          queue.printEnded(end).catch((err: Error) => ctx.log.error(`queue: the end of copy ${end.copy} of job ${end.job_id}: ${err.message}`));
      });
    },
    async stop() {
      unsubscribe?.();
      await queue.stop();
    },
    info: () => queue.info(),
  };
}
