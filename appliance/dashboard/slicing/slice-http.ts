/**
 * The HTTP side of a slice that answers with the file itself (native/slice, bridge/slice): the
 * multipart upload read into a working folder of its own, the form checked as the slicer
 * service checks it, a signal that fires when the client goes away, and the reply: the G-code
 * (or Bambu `.gcode.3mf`) streamed with its statistics in headers. The working folder is removed
 * once the reply is sent or abandoned.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'hyper-express';
import { sendFile } from '../../common/download.js';
import { AppError, ErrorCode } from '../../common/errors.js';
import { holdOpen } from '../../common/long-response.js';
import { maxBodyBytes, readMultipart, type MultipartForm, type UploadLimits } from '../../common/multipart.js';
import type { InflateLimits } from '../../common/zip.js';
import { validationError } from '../http/validate.js';
import type { JsonSchema } from '../http/route.js';
import type { SliceJobRequest, SliceJobResult } from './backend.js';
import type { JobOwner } from './ownership.js';
import { parseSliceForm, DEFAULT_3MF_LIMITS, SLICE_FILE_FIELDS, type SliceForm } from '../../slicer/index.js';

/** The model may be as large as the spec's other model uploads (mesh tools, estimator). */
export const MODEL_LIMIT_BYTES = 50 * 1024 * 1024;
/**
 * What a 3MF's parts may inflate to: the slicer service's defaults (--max-inflate-mb 512,
 * --max-inflate-ratio 100; the engine's DEFAULT_3MF_LIMITS says why); beyond, 413.
 */
export const MODEL_INFLATE_LIMITS: InflateLimits = DEFAULT_3MF_LIMITS;
const LIMITS: UploadLimits = { maxFileBytes: MODEL_LIMIT_BYTES, maxFieldBytes: 256 * 1024, maxFiles: 1, maxFields: 8 };
/** What the router lets through before the reader counts: the model, the text fields, the boundaries. */
export const SLICE_BODY_MAX_BYTES = maxBodyBytes(LIMITS);

export const GCODE_TYPE = 'text/x.gcode';
/** IANA's type for 3MF packages; a Bambu .gcode.3mf is one. */
export const GCODE_3MF_TYPE = 'model/3mf';

/** The slice form's fields, for the OpenAPI description of the upload routes. */
export const SLICE_FORM_PROPERTIES: Record<string, JsonSchema> = {
  model: { type: 'string', description: `The model file (STL or 3MF, at most ${MODEL_LIMIT_BYTES / (1024 * 1024)} MB)` },
  printer_id: { type: 'string', description: 'printer profile id of the catalogue (GET /api/slicer/native/profiles)' },
  filament_ids: { type: 'string', description: 'JSON array of filament profile ids, one per filament slot, e.g. ["generic-pla"]' },
  process_id: { type: 'string', description: 'process profile id' },
  overrides: {
    type: 'string',
    description: 'JSON object of settings (OrcaSlicer names) that replace the profiles\' values, e.g. {"sparse_infill_density": "15%"}',
  },
  height_changes: {
    type: 'string',
    description:
      "JSON array of settings that change with height, e.g. a calibration piece's `notes.height_changes`: " +
      '[{"z_from": 11, "setting": "nozzle_temperature", "value": 215}]; `setting` is nozzle_temperature, retraction_length or ' +
      'retraction_speed, each applied from the first layer at or above z_from. The desktop-slicer bridge cannot apply them.',
  },
};

/** How the reply of a file-returning slice is described in the OpenAPI description. */
export const SLICE_RESULT_DESCRIPTION =
  'The G-code (`text/x.gcode`), or a `.gcode.3mf` package (`model/3mf`) for Bambu printers, as an attachment named after the model. ' +
  'Headers: `X-Layer-Count`, `X-Slice-Duration-Ms`, `X-Estimated-Time-Sec` (whole seconds), `X-Filament-G` (grams per filament slot, ' +
  'comma separated) and `X-Slicer-Backend`; a statistic the slicer did not report is left out.';

/** Per-request working folders under `<data dir>/slicing-work`, emptied at start (leftovers of a crash). */
export class SliceWorkspace {
  constructor(readonly root: string) {}

  async reset(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    await mkdir(this.root, { recursive: true, mode: 0o700 });
  }

  /** Runs `work` in a folder of its own, removed afterwards whatever the outcome. */
  async use<T>(work: (dir: string) => Promise<T>): Promise<T> {
    const dir = path.join(this.root, randomBytes(8).toString('hex'));
    await mkdir(dir, { recursive: true });
    try {
      return await work(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** The dashboard's error shape for the slicer service's form messages: `field "x" …` → `body/x`. */
function asValidation(err: unknown): unknown {
  if (!(err instanceof AppError) || err.code !== ErrorCode.badRequest) return err;
  const field = /field "([^"]+)"/.exec(err.message)?.[1];
  return validationError([{ path: field === undefined ? 'body' : `body/${field}`, message: err.message }]);
}

/** Reads the multipart upload; the model lands in `dir`. */
export async function readSliceUpload(req: Request, dir: string): Promise<MultipartForm> {
  try {
    return await readMultipart(req, dir, LIMITS, SLICE_FILE_FIELDS);
  } catch (err) {
    throw asValidation(err);
  }
}

/** The slice form's fields checked (the slicer service's rules), problems named by field. */
export function parseSliceUpload(multipart: MultipartForm): SliceForm {
  try {
    return parseSliceForm(multipart);
  } catch (err) {
    throw asValidation(err);
  }
}

/** Reads and checks an upload of exactly the slice form. */
export async function receiveSliceUpload(req: Request, dir: string): Promise<SliceForm> {
  return parseSliceUpload(await readSliceUpload(req, dir));
}

/** How often, and for how long, a held request is let read so that a closed connection is noticed. */
const PULSE_EVERY_MS = 1000;
const PULSE_LENGTH_MS = 50;

/**
 * Aborts when the client goes away before the reply has been sent. The request is held paused
 * (common/long-response.ts: a request read with resume() is cut after 10 idle seconds), but a
 * paused socket is not read, so uWebSockets.js would never see the client close it: once a
 * second it is let read for a moment, which reports a closed connection and re-arms no timer.
 */
export function disconnectSignal(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  holdOpen(req);
  let pulseEnd: NodeJS.Timeout | undefined;
  const stop = (): void => {
    clearInterval(pulse);
    clearTimeout(pulseEnd);
  };
  // Once the reply has begun, the watch is over: the reply itself notices a closed connection
  // (hyper-express emits no event when a streamed reply of known length ends).
  const pulse = setInterval(() => {
    if (res.initiated || res.completed) {
      stop();
      return;
    }
    req.resume();
    pulseEnd = setTimeout(() => {
      if (!res.initiated && !res.completed) req.pause();
    }, PULSE_LENGTH_MS);
  }, PULSE_EVERY_MS);
  // hyper-express emits 'abort' only for a connection lost before the response completed.
  res.once('abort', () => {
    stop();
    controller.abort();
  });
  return controller.signal;
}

export function jobRequest(form: SliceForm, outputDir: string, signal: AbortSignal, owner: JobOwner): SliceJobRequest {
  return {
    modelPath: form.model.path,
    modelName: form.model.fileName || 'model.stl',
    printerId: form.printerId,
    filamentIds: form.filamentIds,
    processId: form.processId,
    overrides: form.overrides ?? {},
    ...(form.heightChanges ? { heightChanges: form.heightChanges } : {}),
    outputDir,
    owner,
    signal,
  };
}

export function sliceResultHeaders(result: Omit<SliceJobResult, 'skipped'>): Record<string, string> {
  const headers: Record<string, string> = {
    'x-slice-duration-ms': String(Math.round(result.durationMs)),
    'x-slicer-backend': result.backend,
  };
  if (result.layers !== null) headers['x-layer-count'] = String(result.layers);
  if (result.estimatedTimeS !== null) headers['x-estimated-time-sec'] = String(Math.round(result.estimatedTimeS));
  if (result.filamentG.length > 0) headers['x-filament-g'] = result.filamentG.map((g) => g.toFixed(2)).join(',');
  return headers;
}

/** The download name of a result: the output file's own name. */
export function resultFileName(result: Pick<SliceJobResult, 'gcodePath'>): string {
  return path.basename(result.gcodePath);
}

/** Streams the result file with its statistics headers. */
export async function sendSliceResult(res: Response, result: Omit<SliceJobResult, 'skipped'>): Promise<void> {
  for (const [name, value] of Object.entries(sliceResultHeaders(result))) res.header(name, value, true);
  await sendFile(res, result.gcodePath, {
    contentType: result.format === 'gcode.3mf' ? GCODE_3MF_TYPE : GCODE_TYPE,
    fileName: resultFileName(result),
  });
}
