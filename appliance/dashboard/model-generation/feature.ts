/**
 * The model generation feature: parametric and text models made on the box, offline, and models
 * from the admin's text-to-3D provider when one is configured, as jobs (jobs.ts) built on a worker
 * thread, behind /api/ai-model/* (routes.ts), their progress on the WebSocket as `model.job`.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { MAX_JOBS, ModelJobs } from './jobs.js';
import { configuredProvider } from './providers/provider.js';
import { modelGenerationRoutes } from './routes.js';
import type { GenerationWorkerOptions } from './worker/generation-worker.js';

export function createModelGenerationFeature(ctx: DashboardContext, worker?: GenerationWorkerOptions): DashboardFeature {
  const jobs = new ModelJobs({
    dataDir: ctx.dataDir,
    stores: ctx.stores,
    bus: ctx.bus,
    log: ctx.log.child('model-generation'),
    provider: () => configuredProvider(ctx.settings.current.model_provider),
    worker,
  });
  return {
    name: 'model-generation',
    routes: modelGenerationRoutes(jobs),
    start: () => jobs.open(),
    stop: () => jobs.stop(),
    info: () => ({ generators: jobs.generators().map((g) => g.id), jobs: jobs.size, max_jobs: MAX_JOBS, worker: jobs.workerInfo }),
  };
}
