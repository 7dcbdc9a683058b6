/**
 * Builds run on the generation worker thread: the dashboard's event loop answers while a large
 * model is built (measured with perf_hooks.monitorEventLoopDelay, against the same build run on
 * this thread); a crash of the thread (its heap limit) fails that job with a clear error and the
 * next job gets a fresh thread; DELETE of a running job and stopping the dashboard end the build.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { type FeatureFactory, modelGenerationFeature, sceneSlicingPath } from '../../../appliance/dashboard/features.js';
import { createModelGenerationFeature } from '../../../appliance/dashboard/model-generation/feature.js';
import { manifoldKernel } from '../../../appliance/dashboard/model-generation/geometry/manifold.js';
import { generatorById } from '../../../appliance/dashboard/model-generation/generators/catalogue.js';
import { withDefaults } from '../../../appliance/dashboard/model-generation/generators/generator.js';
import { encodeMesh } from '../../../appliance/dashboard/model-generation/geometry/mesh-store.js';
import { GenerationWorker } from '../../../appliance/dashboard/model-generation/worker/generation-worker.js';
import { loadModel } from '../../../appliance/slicer/index.js';
import { type DashboardFixture, expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';

/** The largest text the schema allows, in the font's busiest letters, as lettering: 87 000 triangles, seconds of geometry. */
const LARGE_TEXT = { text: 'W@'.repeat(20), letter_height: 200, style: 'lettering' };
/** The longest the dashboard's event loop may be held while a build runs (ms): room for the stalls of a loaded 2-core machine. */
const LOOP_BOUND_MS = 400;
/** Builds take seconds, more when other work shares the two cores. */
const JOB_TIMEOUT_MS = 90_000;
/** Tests poll the jobs faster than the default rate limit allows. */
const CONFIG = { rate_limit: { enabled: false } };

const post = (dash: DashboardFixture, generator: string, body: unknown) =>
  dash.request('post', `/api/ai-model/${generator}`, { token: TEST_TOKENS.print, body });
const job = (dash: DashboardFixture, id: string) => dash.request('get', `/api/ai-model/jobs/${id}`, { token: TEST_TOKENS.view });

async function finished(dash: DashboardFixture, id: string): Promise<Record<string, any>> {
  return eventually(
    `job ${id} finished`,
    async () => {
      const answer = (await job(dash, id)).json;
      return answer.state === 'done' || answer.state === 'failed' ? answer : null;
    },
    JOB_TIMEOUT_MS,
  );
}

async function running(dash: DashboardFixture, id: string): Promise<void> {
  await eventually(`job ${id} running`, async () => (await job(dash, id)).json.state === 'running', JOB_TIMEOUT_MS, 10);
}

describe('a dashboard building models', () => {
  let dash: DashboardFixture;
  before(async () => {
    dash = await startDashboardFixture({ features: [modelGenerationFeature], createAuthenticator: testAuthenticator, config: CONFIG });
  });
  after(() => dash.cleanup());

  test('answers HTTP requests while a large model is built: its event loop is never held long', async (t) => {
    const progress: number[] = [];
    const unsubscribe = dash.server.context.bus.on('model.job', (event) => {
      if (event.state === 'running') progress.push(event.progress);
    });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const created = await post(dash, 'text', LARGE_TEXT);
    assert.equal(created.status, 202, created.text);
    const slowest = { ms: 0 };
    let answer: Record<string, any>;
    do {
      const asked = performance.now();
      answer = (await job(dash, created.json.id)).json;
      slowest.ms = Math.max(slowest.ms, performance.now() - asked);
    } while (answer.state !== 'done' && answer.state !== 'failed');
    assert.equal(answer.state, 'done', answer.error);
    unsubscribe();
    assert.ok(
      progress.some((p) => p > 0.05 && p < 1),
      `the progress the generator reported on the worker reached the bus: ${progress.join(', ')}`,
    );
    // The download's 3MF is written on the worker too (seconds for this model on the thread).
    const file = await fetch(`${dash.url}/api/ai-model/jobs/${answer.id}/download?format=3mf`, {
      headers: { authorization: `Bearer ${TEST_TOKENS.view}` },
    });
    const model = loadModel(new Uint8Array(await file.arrayBuffer()), 'large.3mf');
    assert.equal(model.objects[0].mesh.indices.length / 3, answer.result.triangles);
    delay.disable();
    const heldMs = delay.max / 1e6;
    assert.ok(heldMs < LOOP_BOUND_MS, `the event loop was held ${heldMs.toFixed(0)} ms during the build`);
    assert.ok(slowest.ms < LOOP_BOUND_MS * 2, `a request took ${slowest.ms.toFixed(0)} ms during the build`);

    // The same build on this thread holds the loop far longer: the bound above tells the two apart.
    const generator = generatorById('text');
    assert.ok(generator);
    const kernel = await manifoldKernel();
    const inline = monitorEventLoopDelay({ resolution: 10 });
    inline.enable();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await generator.generate(kernel, withDefaults(generator.schema, LARGE_TEXT), () => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    inline.disable();
    t.diagnostic(`event loop held at most ${heldMs.toFixed(0)} ms with the worker, ${(inline.max / 1e6).toFixed(0)} ms on this thread`);
    assert.ok(inline.max / 1e6 > 2 * LOOP_BOUND_MS, `on this thread the build held the loop ${(inline.max / 1e6).toFixed(0)} ms`);
  });

  test('DELETE of a running job ends its build: the job is gone, nothing is written, the next job runs', async () => {
    const id = (await post(dash, 'text', LARGE_TEXT)).json.id;
    await running(dash, id);
    assert.equal((await dash.request('delete', `/api/ai-model/jobs/${id}`, { token: TEST_TOKENS.print })).status, 204);
    expectError(await job(dash, id), 404, 'ERR_NOT_FOUND');
    const next = (await post(dash, 'gear', { teeth: 12 })).json.id;
    assert.equal((await finished(dash, next)).state, 'done');
    assert.equal(existsSync(path.join(dash.dataDir, 'model-generation', `${id}.mesh`)), false);
    expectError(await job(dash, id), 404, 'ERR_NOT_FOUND');
  });

  test('stopping the dashboard ends the running build; after a restart the job says why it failed', async () => {
    const id = (await post(dash, 'text', LARGE_TEXT)).json.id;
    const queued = (await post(dash, 'box', {})).json.id;
    await running(dash, id);
    await dash.stop();
    dash = await startDashboardFixture({
      features: [modelGenerationFeature],
      createAuthenticator: testAuthenticator,
      dataDir: dash.dataDir,
      config: CONFIG,
    });
    const stopped = (await job(dash, id)).json;
    assert.equal(stopped.state, 'failed');
    assert.equal(stopped.error, 'the dashboard stopped during the build');
    assert.equal((await job(dash, queued)).json.error, 'interrupted by a restart');
  });
});

describe('a generation worker that crashes', () => {
  /**
   * A heap limit the small gear fits in and the large text does not (measured: the gear needs
   * about 8 MB, a long text more than 20 MB): the text's build kills the thread, as any crash would.
   */
  const SMALL_HEAP_MB = 14;
  const smallHeap: FeatureFactory = (ctx, services) => createModelGenerationFeature(ctx, sceneSlicingPath(services), { maxHeapMb: SMALL_HEAP_MB });
  let dash: DashboardFixture;
  before(async () => {
    dash = await startDashboardFixture({ features: [smallHeap], createAuthenticator: testAuthenticator, config: CONFIG });
  });
  after(() => dash.cleanup());

  test('fails the job it ran with a clear error, and the next job gets a fresh worker', async () => {
    const crashed = await finished(dash, (await post(dash, 'text', LARGE_TEXT)).json.id);
    assert.equal(crashed.state, 'failed');
    assert.match(crashed.error, /generation worker crashed: .*memory limit/);
    assert.match(dash.logs(), /model generation failed/);
    const next = await finished(dash, (await post(dash, 'gear', { teeth: 12 })).json.id);
    assert.equal(next.state, 'done', next.error);
  });
});

describe('the generation worker', () => {
  const gear = (teeth: number) => ({ generator: 'gear', params: withDefaults(generatorById('gear')?.schema ?? {}, { teeth }), provider: null });

  test('is started once and kept for the next builds; cancel ends it and the next build starts another', async () => {
    const worker = new GenerationWorker();
    try {
      const fractions: number[] = [];
      const first = await worker.run(gear(12), (f) => fractions.push(f));
      assert.ok(first.facts.triangles > 100 && first.stored.byteLength > 8);
      assert.ok(fractions.length > 0, 'progress reached the host');
      const thread = worker.threadId;
      await worker.run(gear(14), () => {});
      assert.equal(worker.threadId, thread, 'the same thread built the second model');
      assert.equal(worker.started, 1);

      const text = worker.run({ generator: 'text', params: withDefaults(generatorById('text')?.schema ?? {}, LARGE_TEXT), provider: null }, () => {});
      const cancelled = assert.rejects(text, { code: 'ERR_CANCELLED' });
      const stl = worker.convert(first.stored, 'stl', 'gear');
      await worker.cancel();
      await cancelled;
      const file = await stl;
      assert.equal(file.byteLength, 84 + 50 * first.facts.triangles, 'a conversion in flight is done, on a fresh thread if need be');
      await worker.run(gear(16), () => {});
      assert.equal(worker.started, 2);
      assert.notEqual(worker.threadId, thread);
      const stored = encodeMesh({ vertices: new Float32Array(9), indices: new Uint32Array(0) });
      assert.equal((await worker.convert(new Uint8Array(stored), 'stl', 'empty')).byteLength, 84);
      await assert.rejects(worker.convert(new Uint8Array(4), 'stl', 'broken'), /out of range|truncated/);
    } finally {
      await worker.close();
    }
    await assert.rejects(
      worker.run(gear(12), () => {}),
      { code: 'ERR_UNAVAILABLE' },
    );
  });

  test('fails a build of a generator it does not know, and stays usable', async () => {
    const worker = new GenerationWorker();
    try {
      await assert.rejects(
        worker.run({ generator: 'teapot', params: {}, provider: null }, () => {}),
        /generator teapot is no longer offered/,
      );
      await assert.rejects(
        worker.run({ generator: 'remote-text', params: {}, provider: null }, () => {}),
        /no text-to-3D provider/,
      );
      await worker.run(gear(12), () => {});
      assert.equal(worker.started, 1);
    } finally {
      await worker.close();
    }
  });
});
