/**
 * The desktop-slicer bridge as a slicing backend. It takes the same request as the others
 * (Printyard profile ids, which may also be the installed slicers' own imported profiles),
 * resolves the config, and slices with the first installed slicer it can drive: PrusaSlicer,
 * else CuraEngine (STL only). What it cannot do moves the fallback chain on
 * (`BackendUnavailableError`): no drivable slicer, several filaments (the translation is
 * single-material), a Bambu printer (neither CLI writes Bambu's .gcode.3mf), a full queue.
 * Mistakes of the request (unknown profile, bad setting, not a model) are thrown as they are.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppError, ErrorCode, toAppError } from '../../../common/errors.js';
import { BackendUnavailableError, type SliceJobRequest, type SliceJobResult, type SlicingBackend, type Unavailable } from '../backend.js';
import { outputFileFor, resolveJobConfig } from '../native/backend.js';
import { MODEL_INFLATE_LIMITS } from '../slice-http.js';
import type { NativeSlicing } from '../native/native-slicing.js';
import type { SliceSlots } from '../native/slice-slots.js';
import { runCuraEngine, runPrusaSlicer, type DesktopJobReport } from './desktop-jobs.js';
import type { DetectedSlicer, SlicerDetector } from './detect.js';
import type { DesktopProfiles } from './desktop-profiles.js';
import type { CliRunner } from './run-cli.js';
import { SLICE_PREFERENCE } from './slicers.js';
import { type BBox3, type ModelFormat, runBounds, sniffModelFile } from '../../../slicer/index.js';

/** The spec's bridge time-out. */
export const BRIDGE_TIMEOUT_MS = 10 * 60 * 1000;

export interface BridgeSliceResult extends Omit<SliceJobResult, 'skipped'> {
  /** The desktop slicer that produced the G-code. */
  slicer: { id: DetectedSlicer['id']; name: string; version: string | null };
}

export interface BridgeParts {
  detector: SlicerDetector;
  desktopProfiles: DesktopProfiles;
  runner: CliRunner;
  slots: SliceSlots;
  native: NativeSlicing;
  timeoutMs: number;
}

function unavailable(reason: string): BackendUnavailableError {
  return new BackendUnavailableError('bridge', reason);
}

/** Why nothing installed can slice: what was found and what each lacks, or what was looked for. */
export function noSlicerReason(found: readonly DetectedSlicer[]): string {
  if (found.length === 0) return 'no desktop slicer is installed (looked for PrusaSlicer, OrcaSlicer, Bambu Studio and CuraEngine)';
  return `no installed desktop slicer can slice: ${found.map((s) => `${s.name}: ${s.reason ?? 'unknown'}`).join('; ')}`;
}

function pickSlicer(slicers: readonly DetectedSlicer[], format: ModelFormat): DetectedSlicer {
  for (const id of SLICE_PREFERENCE) {
    const slicer = slicers.find((s) => s.id === id && s.can_slice);
    if (slicer === undefined) continue;
    if (slicer.id === 'curaengine' && format !== 'stl') continue;
    return slicer;
  }
  throw unavailable(`the installed desktop slicers cannot read a ${format.toUpperCase()} file (CuraEngine reads STL only)`);
}

export class BridgeBackend implements SlicingBackend {
  readonly name = 'bridge' as const;

  constructor(private readonly parts: BridgeParts) {}

  async availability(): Promise<{ available: true } | Unavailable> {
    const found = await this.parts.detector.probe();
    if (!found.some((s) => s.can_slice)) return { available: false, reason: noSlicerReason(found) };
    if (!this.parts.slots.hasRoom) return { available: false, reason: 'the desktop-slicer bridge is busy (its queue is full)' };
    return { available: true };
  }

  async slice(request: SliceJobRequest): Promise<BridgeSliceResult> {
    const started = Date.now();
    const { detector, desktopProfiles, native, slots } = this.parts;
    const found = await detector.probe();
    const slicers = found.filter((s) => s.can_slice);
    if (slicers.length === 0) throw unavailable(noSlicerReason(found));
    if (request.heightChanges?.length) throw unavailable("the desktop slicers' command lines cannot change settings with height");
    const userProfiles = await native.userProfiles();
    const catalogue = await desktopProfiles.catalogue(userProfiles.catalogue(), userProfiles.profiles(), found);
    const config = resolveJobConfig(catalogue, request);
    if (config.gcode_flavor === 'bambu')
      throw unavailable("a Bambu printer needs a .gcode.3mf package, which the desktop slicers' command lines do not write");
    if (request.filamentIds.length !== 1) throw unavailable('the desktop-slicer bridge slices with one filament');
    const { size } = await stat(request.modelPath);
    const format = await sniffModelFile(request.modelPath, size, request.modelName);
    const slicer = pickSlicer(slicers, format);

    const release = await slots.acquire(request.signal);
    const workDir = path.join(request.outputDir, `.bridge-${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(workDir);
      const bounds = await this.measure(request);
      const outputPath = outputFileFor(request.outputDir, request.modelName, 'gcode');
      const job = {
        slicer,
        config,
        modelPath: request.modelPath,
        modelFormat: format,
        bounds,
        workDir,
        outputPath,
        modelBase: path.basename(outputPath, '.gcode'),
        timeoutMs: this.parts.timeoutMs,
        signal: request.signal,
      };
      let report: DesktopJobReport;
      try {
        report = slicer.id === 'prusaslicer' ? await runPrusaSlicer(this.parts.runner, job) : await runCuraEngine(this.parts.runner, job);
      } catch (err) {
        throw toAppError(err, ErrorCode.sliceFailed);
      }
      return {
        backend: this.name,
        gcodePath: outputPath,
        format: 'gcode',
        sizeBytes: (await stat(outputPath)).size,
        layers: report.layers,
        estimatedTimeS: report.estimatedTimeS,
        filamentMm: report.filamentMm,
        filamentG: report.filamentG,
        durationMs: Date.now() - started,
        warnings: report.caveats.map((caveat) => `${slicer.name}: ${caveat}`),
        slicer: { id: slicer.id, name: slicer.name, version: slicer.version },
      };
    } finally {
      release();
      await rm(workDir, { recursive: true, force: true });
    }
  }

  /** The model's box, loaded in a process of its own (which also refuses a broken model with 422, a zip bomb with 413). */
  private async measure(request: SliceJobRequest): Promise<BBox3> {
    const handle = runBounds({ kind: 'bounds', modelPath: request.modelPath, fileName: request.modelName, inflateLimits: MODEL_INFLATE_LIMITS });
    const cancel = (): void => handle.cancel(new AppError(ErrorCode.cancelled, 409, 'slice cancelled'));
    request.signal.addEventListener('abort', cancel, { once: true });
    if (request.signal.aborted) cancel();
    try {
      return await handle.result;
    } finally {
      request.signal.removeEventListener('abort', cancel);
    }
  }
}
