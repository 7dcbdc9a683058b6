/**
 * The slicer service as the first slicing backend. It always asks for the event stream, even for
 * a buffered reply of the dashboard: the stream opens at once and carries keep-alives, where a
 * buffered upstream reply would send no headers until the job is done (and an HTTP client's
 * header time-out would cut a long slice). Once `done` arrives the G-code is downloaded into the
 * request's output folder, so every backend leaves its result in the same place.
 *
 * A request that is aborted (client gone, time-out) cancels the upstream job: the slice was the
 * dashboard's and nobody will fetch it. (The `slice/stream` relay does the opposite: there the
 * browser follows the service's own job, which keeps its G-code when the browser goes away.)
 * The job's owner (the request's) is remembered as soon as the service names the job, so that
 * only they, or an admin, can cancel it through the proxy.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../../common/errors.js';
import type { Logger } from '../../../common/logger.js';
import { BackendUnavailableError, type SliceJobRequest, type SliceJobResult, type SlicingBackend, type Unavailable } from '../backend.js';
import { outputFileFor } from '../native/backend.js';
import type { RemoteSlicerClient } from './client.js';
import { detailOf, RemoteUnavailableError } from './errors.js';
import type { UpstreamJobOwners } from './job-owners.js';
import { hidePaths } from './redact.js';
import type { RemoteProbe } from './probe.js';
import { followSliceStream, type RemoteSliceResult } from './slice-stream.js';

export class RemoteBackend implements SlicingBackend {
  readonly name = 'remote' as const;

  constructor(
    private readonly client: RemoteSlicerClient,
    private readonly probe: RemoteProbe,
    private readonly owners: UpstreamJobOwners,
    private readonly log: Logger,
    private readonly idleMs?: number,
  ) {}

  async availability(): Promise<{ available: true } | Unavailable> {
    try {
      await this.probe.requireUsable();
      return { available: true };
    } catch (err) {
      return { available: false, reason: err instanceof Error ? err.message : String(err) };
    }
  }

  async slice(request: SliceJobRequest): Promise<Omit<SliceJobResult, 'skipped'>> {
    try {
      return await this.run(request);
    } catch (err) {
      // The chain shows the public reason; what happened goes to the log.
      if (err instanceof RemoteUnavailableError) this.log.warn(`slicing on the slicer service: ${err.detail}`);
      throw err;
    }
  }

  private async run(request: SliceJobRequest): Promise<Omit<SliceJobResult, 'skipped'>> {
    const started = Date.now();
    await this.probe.requireUsable();
    const response = await this.probe.watch(() =>
      this.client.slice(
        {
          modelPath: request.modelPath,
          modelName: request.modelName,
          printerId: request.printerId,
          filamentIds: request.filamentIds,
          processId: request.processId,
          overrides: Object.keys(request.overrides).length > 0 ? request.overrides : null,
          heightChanges: request.heightChanges,
        },
        'text/event-stream',
        request.signal,
      ),
    );
    const jobId = response.headers.get('x-job-id');
    if (jobId !== null) this.owners.remember(jobId, request.owner);
    const { body } = response;
    if (body === null) throw new RemoteUnavailableError('the slicer service answered the slice without a body');
    let result: RemoteSliceResult;
    try {
      result = await this.probe.watch(() =>
        followSliceStream(body, {
          signal: request.signal,
          clean: (text) => this.client.clean(text),
          ...(this.idleMs === undefined ? {} : { idleMs: this.idleMs }),
          ...(request.onProgress ? { onProgress: request.onProgress } : {}),
        }),
      );
    } catch (err) {
      if (request.signal.aborted && jobId !== null) this.cancelUpstream(jobId);
      throw err;
    }
    const format = result.format === 'gcode.3mf' ? 'gcode.3mf' : 'gcode';
    const gcodePath = outputFileFor(request.outputDir, request.modelName, format);
    await this.download(result.job_id, gcodePath, request.signal);
    const { size } = await stat(gcodePath);
    return {
      backend: this.name,
      gcodePath,
      format,
      sizeBytes: size,
      layers: typeof result.layers === 'number' ? result.layers : null,
      estimatedTimeS: typeof result.estimated_time_s === 'number' ? result.estimated_time_s : null,
      filamentMm: numbers(result.filament_used_mm),
      filamentG: numbers(result.filament_used_g),
      durationMs: Date.now() - started,
      // The service's own words, kept with a result its owner (not an admin) reads.
      warnings: Array.isArray(result.warnings)
        ? result.warnings.filter((w): w is string => typeof w === 'string').map((w) => hidePaths(this.client.clean(w)))
        : [],
    };
  }

  private async download(jobId: string, target: string, signal: AbortSignal): Promise<void> {
    try {
      const response = await this.client.jobFile(jobId, 'gcode', signal);
      if (response.body === null) throw new RemoteUnavailableError(`the slicer service sent the G-code of job ${jobId} without a body`);
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), createWriteStream(target), { signal });
    } catch (err) {
      if (signal.aborted || err instanceof BackendUnavailableError) throw err;
      // The job sliced but its file could not be fetched: not the user's fault, so the chain
      // may still try another backend. A local write error names a server path: the detail only.
      const what = `the G-code of job ${jobId} could not be downloaded`;
      throw new RemoteUnavailableError(err instanceof AppError ? `${what}: ${err.message} (${err.code})` : what, `${what}: ${detailOf(err)}`);
    }
  }

  private cancelUpstream(jobId: string): void {
    this.client.cancelJob(jobId).catch((err: unknown) => {
      this.log.debug(`cancelling job ${jobId} on the slicer service: ${err instanceof Error ? err.message : String(err)}`);
    });
  }
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((n): n is number => typeof n === 'number') : [];
}
