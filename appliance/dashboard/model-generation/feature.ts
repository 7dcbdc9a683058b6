/**
 * The model generation feature: parametric and text models made on the box, offline, as jobs
 * (jobs.ts) behind /api/ai-model/* (routes.ts), their progress on the WebSocket as `model.job`.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { MAX_JOBS, ModelJobs } from './jobs.js';
import { modelGenerationRoutes } from './routes.js';
import { GENERATORS } from './generators/catalogue.js';

export function createModelGenerationFeature(ctx: DashboardContext): DashboardFeature {
  const jobs = new ModelJobs({ dataDir: ctx.dataDir, stores: ctx.stores, bus: ctx.bus, log: ctx.log.child('model-generation') });
  return {
    name: 'model-generation',
    routes: modelGenerationRoutes(jobs),
    start: () => jobs.open(),
    stop: () => jobs.stop(),
    info: () => ({ generators: GENERATORS.map((g) => g.id), jobs: jobs.size, max_jobs: MAX_JOBS }),
  };
}
