import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { AppError, ErrorCode } from '../../../appliance/common/errors.js';
import {
  BackendUnavailableError,
  type BackendName,
  type SliceJobRequest,
  type SliceJobResult,
  type SlicingBackend,
} from '../../../appliance/dashboard/slicing/backend.js';
import { sliceWithFallback } from '../../../appliance/dashboard/slicing/fallback.js';
import { startDashboardFixture, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { modelBytes } from '../../fixtures/model-files.js';
import type { BridgeOptions } from '../../../appliance/dashboard/slicing/bridge/desktop-bridge.js';
import { bridgeFeature, nativeSlicingFeature, slicerServiceFeature } from '../../../appliance/dashboard/features.js';

const temp = mkdtempSync(path.join(os.tmpdir(), 'printyard-fallback-test-'));
after(() => rmSync(temp, { recursive: true, force: true }));

let jobs = 0;

/** A job for box.stl with the bundled Marlin profiles, in a folder of its own. */
function request(signal: AbortSignal = new AbortController().signal): SliceJobRequest {
  const dir = path.join(temp, `job-${++jobs}`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'upload'), modelBytes('box.stl'));
  return {
    modelPath: path.join(dir, 'upload'),
    modelName: 'box.stl',
    printerId: 'generic-marlin-0.4',
    filamentIds: ['generic-pla'],
    processId: '0.20mm-standard',
    overrides: {},
    outputDir: dir,
    owner: { kind: 'user', id: 'user-print', name: 'print' },
    signal,
  };
}

type Outcome = 'slices' | { unavailable: string } | { throws: Error };

/** A backend that does what the test says and counts its calls. */
class ScriptedBackend implements SlicingBackend {
  slices = 0;

  constructor(
    readonly name: BackendName,
    private readonly outcome: Outcome,
  ) {}

  async availability() {
    if (typeof this.outcome === 'object' && 'unavailable' in this.outcome) return { available: false as const, reason: this.outcome.unavailable };
    return { available: true as const };
  }

  async slice(job: SliceJobRequest): Promise<Omit<SliceJobResult, 'skipped'>> {
    this.slices++;
    if (typeof this.outcome === 'object' && 'throws' in this.outcome) throw this.outcome.throws;
    return {
      backend: this.name,
      gcodePath: path.join(job.outputDir, `${this.name}.gcode`),
      format: 'gcode',
      sizeBytes: 1,
      layers: 1,
      estimatedTimeS: 1,
      filamentMm: [1],
      filamentG: [1],
      durationMs: 1,
      warnings: [],
    };
  }
}

describe('the chain', () => {
  test('takes the first backend that slices; the later ones are not asked', async () => {
    const remote = new ScriptedBackend('remote', 'slices');
    const native = new ScriptedBackend('native', 'slices');
    const result = await sliceWithFallback([remote, native], request());
    assert.equal(result.backend, 'remote');
    assert.deepEqual(result.skipped, []);
    assert.equal(native.slices, 0);
  });

  test('skips an unavailable backend and one that turns out unavailable, in order, with their reasons', async () => {
    const remote = new ScriptedBackend('remote', { unavailable: 'the slicer service is not reachable' });
    const bridge = new ScriptedBackend('bridge', { throws: new BackendUnavailableError('bridge', 'no desktop slicer is installed') });
    const native = new ScriptedBackend('native', 'slices');
    const result = await sliceWithFallback([remote, bridge, native], request());
    assert.equal(result.backend, 'native');
    assert.deepEqual(result.skipped, [
      { backend: 'remote', reason: 'the slicer service is not reachable' },
      { backend: 'bridge', reason: 'no desktop slicer is installed' },
    ]);
    assert.equal(remote.slices, 0, 'an unavailable backend is not asked to slice');
  });

  test("returns the user's mistakes as they are, without trying another backend", async () => {
    for (const mistake of [
      new AppError(ErrorCode.profileNotFound, 404, 'unknown process profile "nope"'),
      new AppError(ErrorCode.validation, 400, 'body/overrides/layer_height: too high'),
      new AppError(ErrorCode.badModel, 422, 'the model file is empty'),
      new AppError(ErrorCode.unsupportedModel, 415, 'neither STL nor 3MF'),
    ]) {
      const native = new ScriptedBackend('native', 'slices');
      await assert.rejects(sliceWithFallback([new ScriptedBackend('remote', { throws: mistake }), native], request()), (err) => err === mistake);
      assert.equal(native.slices, 0, `${mistake.status} must not be retried`);
    }
  });

  test('moves on from an engine failure and from a busy backend, recording both', async () => {
    const result = await sliceWithFallback(
      [
        new ScriptedBackend('remote', { throws: new AppError(ErrorCode.sliceFailed, 500, 'the engine crashed') }),
        new ScriptedBackend('bridge', { throws: new AppError(ErrorCode.tooManyJobs, 429, 'busy') }),
        new ScriptedBackend('native', 'slices'),
      ],
      request(),
    );
    assert.equal(result.backend, 'native');
    assert.deepEqual(result.skipped, [
      { backend: 'remote', reason: 'failed: the engine crashed (ERR_SLICE_FAILED)' },
      { backend: 'bridge', reason: 'failed: busy (ERR_TOO_MANY_JOBS)' },
    ]);
  });

  test("when nothing slices: 503 naming every reason, or the last failure's status", async () => {
    await assert.rejects(
      sliceWithFallback(
        [new ScriptedBackend('remote', { unavailable: 'disabled' }), new ScriptedBackend('bridge', { unavailable: 'no slicer' })],
        request(),
      ),
      (err: AppError) => {
        assert.equal(err.status, 503);
        assert.equal(err.code, ErrorCode.unavailable);
        assert.match(err.message, /remote: disabled; bridge: no slicer/);
        assert.deepEqual(err.details, {
          skipped: [
            { backend: 'remote', reason: 'disabled' },
            { backend: 'bridge', reason: 'no slicer' },
          ],
        });
        return true;
      },
    );
    await assert.rejects(
      sliceWithFallback(
        [new ScriptedBackend('remote', { unavailable: 'disabled' }), new ScriptedBackend('native', { throws: new Error('out of memory') })],
        request(),
      ),
      (err: AppError) => err.status === 500 && err.code === ErrorCode.sliceFailed && /native: failed: out of memory/.test(err.message),
    );
  });

  test('a cancelled request is not handed to the next backend', async () => {
    const controller = new AbortController();
    const cancelling: SlicingBackend = {
      name: 'remote',
      availability: async () => ({ available: true }),
      async slice() {
        controller.abort();
        throw new AppError(ErrorCode.cancelled, 409, 'slice cancelled');
      },
    };
    const native = new ScriptedBackend('native', 'slices');
    await assert.rejects(sliceWithFallback([cancelling, native], request(controller.signal)), { code: ErrorCode.cancelled });
    assert.equal(native.slices, 0);
  });
});

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the real backends', () => {
  const dashboards: DashboardFixture[] = [];
  after(async () => {
    for (const dash of dashboards) await dash.cleanup();
  });

  /** A dashboard whose slicer service cannot be reached, with the bridge as `bridge` says. */
  async function chainOf(bridge: BridgeOptions): Promise<SlicingBackend[]> {
    const dash = await startDashboardFixture({
      features: [nativeSlicingFeature, bridgeFeature, slicerServiceFeature],
      services: { bridge },
      createAuthenticator: testAuthenticator,
      config: { slicer_service: { enabled: true, url: `http://127.0.0.1:${await deadPort()}` } },
      logLevel: 'error',
    });
    dashboards.push(dash);
    const { remote, bridge: desktop, native } = dash.server.services;
    return [remote.backend, desktop.backend, native.backend];
  }

  test('the slicer service unreachable: the bridge slices with PrusaSlicer', async () => {
    const result = await sliceWithFallback(await chainOf({}), request());
    assert.equal(result.backend, 'bridge');
    assert.deepEqual(
      result.skipped.map((s) => s.backend),
      ['remote'],
    );
    assert.ok(result.skipped[0].reason.length > 0);
    assert.match(readFileSync(result.gcodePath, 'utf8'), /^; generated by PrusaSlicer/);
    assert.equal(result.layers, 125);
  });

  test('no desktop slicer either: the built-in engine slices, and the result says why the others did not', async () => {
    const empty = path.join(temp, 'no-slicers');
    mkdirSync(empty);
    const result = await sliceWithFallback(await chainOf({ searchDirs: [empty] }), request());
    assert.equal(result.backend, 'native');
    assert.deepEqual(
      result.skipped.map((s) => s.backend),
      ['remote', 'bridge'],
    );
    assert.match(result.skipped[1].reason, /no desktop slicer is installed/);
    assert.match(readFileSync(result.gcodePath, 'utf8'), /^; generated by Printyard/m);
    assert.equal(result.layers, 125);
  });
});
