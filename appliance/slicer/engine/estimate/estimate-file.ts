/**
 * Estimates a G-code file on disk: streamed in chunks, so a 100 MB file needs no more memory than
 * a small one. The machine comes from the options, else from the settings the slicer embedded in
 * the file, else from our defaults; the file's own M201/M203/M204/M205 lines apply on top.
 */
import { createReadStream } from 'node:fs';
import { AppError, ErrorCode } from '../../../common/errors.js';
import { readEmbeddedMachine } from './embedded-config.js';
import { GcodeEstimator, type EstimateResult } from './estimator.js';
import type { FirmwareRetraction, MachineLimits } from './limits.js';

export interface EstimateFileOptions {
  limits?: MachineLimits;
  firmwareRetraction?: FirmwareRetraction[];
  signal?: AbortSignal;
}

const CHUNK_BYTES = 1 << 20;

export async function estimateGcodeFile(path: string, options: EstimateFileOptions = {}): Promise<EstimateResult> {
  try {
    const { limits, firmwareRetraction } = await machineOf(path, options);
    const estimator = new GcodeEstimator(limits, { firmwareRetraction });
    // Bytes straight from the file: the reader works on bytes, nothing needs decoding.
    const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES, signal: options.signal });
    for await (const chunk of stream) estimator.feed(chunk as Buffer);
    return estimator.finish();
  } catch (err) {
    throw fileError(err, path);
  }
}

/** The options' machine, completed from the file's embedded settings when the options leave something out. */
async function machineOf(path: string, options: EstimateFileOptions): Promise<{ limits: MachineLimits; firmwareRetraction: FirmwareRetraction[] }> {
  if (options.limits && options.firmwareRetraction) return { limits: options.limits, firmwareRetraction: options.firmwareRetraction };
  const embedded = await readEmbeddedMachine(path);
  return { limits: options.limits ?? embedded.limits, firmwareRetraction: options.firmwareRetraction ?? embedded.firmwareRetraction };
}

function fileError(err: unknown, path: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return new AppError(ErrorCode.badRequest, 404, `G-code file not found: ${path}`);
  if (code === 'EISDIR') return new AppError(ErrorCode.badRequest, 400, `not a file: ${path}`);
  if (code === 'ABORT_ERR') return new AppError(ErrorCode.cancelled, 499, 'estimate cancelled');
  return err;
}
