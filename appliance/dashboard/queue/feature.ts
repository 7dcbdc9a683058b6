/**
 * The queue feature: the jobs, the dispatcher and the plates (queue-service.ts, which services.ts
 * makes with the printers and the inventory's spool directory) and their routes.
 */
import type { DashboardFeature } from '../feature.js';
import type { QueueService } from './queue-service.js';
import { queueRoutes } from './routes.js';

export const QUEUE_FEATURE = 'queue';

export function createQueueFeature(queue: QueueService, dataDir: string): DashboardFeature {
  return {
    name: QUEUE_FEATURE,
    routes: queueRoutes(queue, dataDir),
    start: () => queue.start(),
    stop: () => queue.stop(),
    info: () => queue.info(),
  };
}
