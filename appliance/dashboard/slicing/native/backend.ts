/**
 * The built-in engine as a slicing backend: the job's profile ids resolved against the bundled
 * and user profiles, the model checked by content, then the slice in a process of its own
 * (the slicer service's task process, `slice-worker.ts`), so the dashboard's event loop never runs
 * geometry and gets back all the memory a slice took. Slices wait their turn in `SliceSlots`; a cancelled request stops its thread.
 */
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { SliceJobRequest, SliceJobResult, SlicingBackend } from '../backend.js';
import { validationError } from '../../http/validate.js';
import type { UserProfiles } from './user-profiles.js';
import type { DashboardSettings } from '../../settings/settings.js';
import { MODEL_INFLATE_LIMITS } from '../slice-http.js';
import type { SliceSlots } from './slice-slots.js';
import {
  type OutputFormat,
  outputFileName,
  outputFormatFor,
  type PrintConfig,
  type ProfileCatalogue,
  runSlice,
  sliceMetadata,
  sniffModelFile,
} from '../../../slicer/index.js';

/**
 * The engine's configuration of a job. Setting and filament-count problems are the request's
 * fault and come back as 400 ERR_VALIDATION naming the form field (and the setting); an unknown
 * profile stays 404 ERR_PROFILE_NOT_FOUND.
 */
export function resolveJobConfig(
  catalogue: ProfileCatalogue,
  request: Pick<SliceJobRequest, 'printerId' | 'filamentIds' | 'processId' | 'overrides'>,
): PrintConfig {
  try {
    return catalogue.resolveConfig({
      printerId: request.printerId,
      filamentIds: request.filamentIds,
      processId: request.processId,
      overrides: request.overrides,
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === ErrorCode.unknownSetting || err.code === ErrorCode.invalidSetting) {
      const key = (err.details as { key?: string } | undefined)?.key;
      throw validationError([{ path: key === undefined ? 'body/overrides' : `body/overrides/${key}`, message: err.message }]);
    }
    if (err.code === ErrorCode.badRequest) throw validationError([{ path: 'body/filament_ids', message: err.message }]);
    throw err;
  }
}

/** `Benchy.stl` → `Benchy.gcode` (or `Benchy.gcode.3mf` for a Bambu printer), inside `dir`. */
export function outputFileFor(dir: string, modelName: string, format: OutputFormat): string {
  return path.join(dir, outputFileName(modelName, format));
}

/** What a slice may write and must leave free on the output's disk, in bytes. */
export interface OutputLimits {
  maxOutputBytes: number;
  minFreeBytes: number;
}

const MB = 1024 * 1024;

/**
 * The `slicing` settings as the engine takes them: a tiny model scaled up can make gigabytes of
 * G-code, and the state files of every feature live on the same disk (an SD card).
 */
export function outputLimits(settings: DashboardSettings['slicing']): OutputLimits {
  return { maxOutputBytes: settings.max_output_mb * MB, minFreeBytes: settings.min_free_mb * MB };
}

/** How the slices that reached a slicing process ended, for /api/system/info. */
export interface SliceCounts {
  completed: number;
  failed: number;
  cancelled: number;
}

export class NativeBackend implements SlicingBackend {
  readonly name = 'native' as const;
  readonly counts: SliceCounts = { completed: 0, failed: 0, cancelled: 0 };

  constructor(
    private readonly userProfiles: () => Promise<UserProfiles>,
    private readonly slots: SliceSlots,
    private readonly limits: () => OutputLimits,
  ) {}

  async availability(): Promise<{ available: true }> {
    return { available: true };
  }

  async slice(request: SliceJobRequest): Promise<Omit<SliceJobResult, 'skipped'>> {
    const started = Date.now();
    const catalogue = (await this.userProfiles()).catalogue();
    const config = resolveJobConfig(catalogue, request);
    const { size } = await stat(request.modelPath);
    await sniffModelFile(request.modelPath, size, request.modelName);
    const release = await this.slots.acquire(request.signal);
    const format = outputFormatFor(config);
    const outputPath = outputFileFor(request.outputDir, request.modelName, format);
    // The worker renders the toolpath preview the service shows; the dashboard has no use for it.
    const previewPath = `${outputPath}.preview.png`;
    try {
      const handle = runSlice(
        {
          kind: 'slice',
          modelPath: request.modelPath,
          fileName: request.modelName,
          config,
          outputPath,
          previewPath,
          metadata: sliceMetadata(catalogue, request),
          engineThreads: null,
          inflateLimits: MODEL_INFLATE_LIMITS,
          heightChanges: request.heightChanges,
          ...this.limits(),
        },
        (event) => {
          if (event.type === 'progress') request.onProgress?.({ stage: event.stage, pct: event.pct });
        },
      );
      const cancel = (): void => handle.cancel(new AppError(ErrorCode.cancelled, 409, 'slice cancelled'));
      request.signal.addEventListener('abort', cancel, { once: true });
      if (request.signal.aborted) cancel();
      try {
        const summary = await handle.result.catch((err: unknown) => {
          if (err instanceof AppError && err.code === ErrorCode.cancelled) this.counts.cancelled++;
          else this.counts.failed++;
          throw err;
        });
        this.counts.completed++;
        return {
          backend: this.name,
          gcodePath: summary.outputPath,
          format: summary.format,
          sizeBytes: summary.sizeBytes,
          layers: summary.layers,
          estimatedTimeS: summary.estimatedTimeS,
          filamentMm: summary.filament.mm,
          filamentG: summary.filament.g,
          durationMs: Date.now() - started,
          warnings: summary.warnings,
        };
      } finally {
        request.signal.removeEventListener('abort', cancel);
        await rm(previewPath, { force: true });
      }
    } finally {
      release();
    }
  }
}
