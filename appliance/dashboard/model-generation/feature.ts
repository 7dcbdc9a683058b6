/**
 * The model generation feature: parametric and text models made on the box, offline, and models
 * from the admin's text-to-3D provider when one is configured, as jobs (jobs.ts) built on a worker
 * thread, behind /api/ai-model/* (routes.ts), their progress on the WebSocket as `model.job`; and
 * scenes of those models (scenes/), sliced through the dashboard's slicing chain and sent to its printers.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { MAX_JOBS, ModelJobs } from './jobs.js';
import { configuredProvider } from './providers/provider.js';
import { modelGenerationRoutes, TAG } from './routes.js';
import { sceneRoutes } from './scenes/scene-routes.js';
import { SceneSending } from './scenes/scene-send.js';
import { SceneSlicing, type SlicingPath } from './scenes/scene-slicing.js';
import { SceneStore } from './scenes/scene-store.js';
import type { GenerationWorkerOptions } from './worker/generation-worker.js';

export function createModelGenerationFeature(ctx: DashboardContext, slicing: SlicingPath, worker?: GenerationWorkerOptions): DashboardFeature {
  let scenes: SceneStore | null = null;
  const jobs = new ModelJobs({
    dataDir: ctx.dataDir,
    stores: ctx.stores,
    bus: ctx.bus,
    log: ctx.log.child('model-generation'),
    pinned: (id) => scenes?.uses(id) ?? false,
    provider: () => configuredProvider(ctx.settings.current.model_provider),
    worker,
  });
  scenes = new SceneStore(ctx.stores, jobs);
  // The scene's 3MF waits here while it is sliced; what a crash left is removed at start.
  const workDir = path.join(ctx.dataDir, 'slicing-work', 'scenes');
  const sceneSlicing = new SceneSlicing(scenes, jobs, slicing, workDir);
  const sceneSending = new SceneSending(scenes, sceneSlicing, slicing);
  const store = scenes;
  return {
    name: 'model-generation',
    routes: [...modelGenerationRoutes(jobs), ...sceneRoutes(store, sceneSlicing, sceneSending, TAG, ctx.log.child('scenes'))],
    async start() {
      await rm(workDir, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true, mode: 0o700 });
      await jobs.open();
      await store.open();
    },
    stop: () => jobs.stop(),
    info: () => ({
      generators: jobs.generators().map((g) => g.id),
      jobs: jobs.size,
      max_jobs: MAX_JOBS,
      scenes: store.size,
      worker: jobs.workerInfo,
    }),
  };
}
