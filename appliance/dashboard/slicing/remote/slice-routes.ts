/**
 * The slicing routes of the proxy:
 * - `slice` (buffered) and `slice-and-send` go through the fallback chain (remote → bridge →
 *   native); the G-code is stored as a result (results.ts) and the JSON reply says which backend
 *   made it, why earlier ones were skipped, its statistics and where to download it;
 * - `slice/stream` is the service's own event stream relayed unchanged (`progress`, `layer`,
 *   `done`, `error`), with keep-alive comments, as `text/event-stream`. It has no fallback: its
 *   events are the service's. A browser that goes away stops the relay, not the job (the service
 *   keeps the G-code). A stream that breaks off without `done` gets an `error` event of our own
 *   with "SSE stream ended without a done event", since the browser could not tell otherwise.
 *   `done` and `error` pass through job-view.ts: cleaned text, the dashboard's download links,
 *   and no server path unless the user is an admin. The job's owner is remembered as soon as
 *   the service names the job.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { EventStream } from '../../../common/sse.js';
import type { Principal, RouteSpec } from '../../http/route.js';
import type { UpstreamEvent } from '../../../common/sse-reader.js';
import type { SlicingBackend } from '../backend.js';
import { type ProgressListener, SLICE_EVENTS_KEEPALIVE_MS, streamSlice } from '../slice-events.js';
import type { Logger } from '../../../common/logger.js';
import { sliceWithFallback } from '../fallback.js';
import type { SpoolDirectory } from '../../inventory/spool.js';
import type { Printers } from '../../printers/feature.js';
import { sendStoredResult, sendTarget, sliceFormFor } from '../send-to-printer.js';
import { disconnectSignal, jobRequest, readSliceUpload, receiveSliceUpload, SLICE_BODY_MAX_BYTES, type SliceWorkspace } from '../slice-http.js';
import { isAdmin, ownerOf, type JobOwner } from '../ownership.js';
import { RemoteUnavailableError } from './errors.js';
import { resultView } from './job-view.js';
import { hidePaths } from './redact.js';
import type { RemoteSlicing } from './remote-slicing.js';
import { SEND_RESULT_SCHEMA, SLICE_AND_SEND_FORM_SCHEMA, SLICE_FORM_SCHEMA, SLICE_RESULT_SCHEMA } from './schemas.js';
import { followSliceStream } from './slice-stream.js';
import type { StoredResult } from './results.js';
import { proxied, TAG } from './routes.js';
import type { SliceForm } from '../../../slicer/index.js';

/** Keep-alive comments of the relayed stream, as the service sends its own. */
const RELAY_KEEPALIVE_MS = SLICE_EVENTS_KEEPALIVE_MS;

const sliceErrors = {
  400: { description: "A form field or setting is not valid (ERR_VALIDATION, or the service's ERR_BAD_REQUEST)." },
  404: { description: 'A profile id is unknown (ERR_PROFILE_NOT_FOUND).' },
  415: { description: 'The model is neither STL nor 3MF (ERR_UNSUPPORTED_MODEL).' },
  422: { description: 'The model is broken or does not fit the printer (ERR_BAD_MODEL, ERR_MODEL_OUTSIDE_BED).' },
};

export interface SliceRouteDeps {
  remote: RemoteSlicing;
  workspace: SliceWorkspace;
  /** The fallback chain, remote first. */
  backends(): readonly SlicingBackend[];
  /** The printers, for slice-and-send. */
  printers: Printers;
  log: Logger;
  /** The spools, named per slot in a slice-and-send's announcement. */
  spools: SpoolDirectory | null;
}

export function sliceRoutes(deps: SliceRouteDeps): RouteSpec[] {
  const { remote, workspace } = deps;

  /** Slices through the fallback chain into a new stored result. */
  const sliceToResult = async (form: SliceForm, signal: AbortSignal, owner: JobOwner, onProgress?: ProgressListener): Promise<StoredResult> => {
    const { id, dir } = await remote.results.create();
    try {
      const request = { ...jobRequest(form, dir, signal, owner), ...(onProgress ? { onProgress } : {}) };
      return await remote.results.save(id, await sliceWithFallback(deps.backends(), request), owner);
    } catch (err) {
      await remote.results.discard(id);
      throw err;
    }
  };

  return [
    {
      method: 'post',
      path: '/api/slicer/remote/slice',
      level: 'print',
      tag: TAG,
      summary: 'Slice (buffered), falling back to the other backends',
      description:
        "The slicer service's form. Tried on the slicer service, then the desktop-slicer bridge, then the built-in engine: " +
        'a backend that is unavailable (unreachable, incompatible, 501) or fails on its side is skipped with its reason; ' +
        'a mistake in the request (bad model, unknown profile) is answered at once. ' +
        'The reply names the backend, the skipped ones, the statistics and the download path of the G-code.',
      body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: SLICE_BODY_MAX_BYTES, schema: SLICE_FORM_SCHEMA },
      responses: {
        200: { description: 'The stored result.', schema: SLICE_RESULT_SCHEMA },
        ...sliceErrors,
        503: { description: "No backend could slice (ERR_UNAVAILABLE); `details.skipped` has each one's reason." },
      },
      handler: proxied(({ req, res, principal }) =>
        workspace.use(async (dir) => {
          const form = await receiveSliceUpload(req, dir);
          return sliceToResult(form, disconnectSignal(req, res), ownerOf(principal));
        }),
      ),
    },
    {
      method: 'post',
      path: '/api/slicer/remote/slice/events',
      level: 'print',
      tag: TAG,
      summary: 'Slice (with fallback) and follow its progress as an event stream',
      description:
        'The buffered slice (same form, same fallback chain remote → bridge → native, same stored result) with its progress as ' +
        '`text/event-stream`: `progress` {stage, pct} from whichever backend is slicing (the desktop-slicer bridge reports none), then ' +
        '`done` (the stored result, as POST /api/slicer/remote/slice answers it) or `error` {message, code, status, details}. ' +
        '`: keep-alive` comments every 15 s. Errors in the upload (before the stream starts) are JSON. Closing the stream cancels the slice.',
      body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: SLICE_BODY_MAX_BYTES, schema: SLICE_FORM_SCHEMA },
      responses: {
        200: { description: 'The event stream.', contentType: 'text/event-stream' },
        400: sliceErrors[400],
        413: { description: 'The upload is too large (ERR_PAYLOAD_TOO_LARGE).' },
      },
      handler: proxied(({ req, res, principal }) =>
        workspace.use(async (dir) => {
          const form = await receiveSliceUpload(req, dir);
          await streamSlice(req, res, deps.log, (signal, onProgress) => sliceToResult(form, signal, ownerOf(principal), onProgress));
        }),
      ),
    },
    {
      method: 'post',
      path: '/api/slicer/remote/slice/stream',
      level: 'print',
      tag: TAG,
      summary: 'Slice on the slicer service with live progress (event stream)',
      description:
        "The slicer service's events `progress` {stage, pct}, `layer` {layer, total_layers}, `done` (the Slice result) and `error` {message, code} " +
        'relayed unchanged as `text/event-stream`, with `: keep-alive` comments every 15 s. ' +
        "`X-Job-Id` names the service's job (for jobs/:id/gcode, cancel, preview). Closing the stream stops following, not the job. " +
        'Errors before the stream starts are JSON.',
      body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: SLICE_BODY_MAX_BYTES, schema: SLICE_FORM_SCHEMA },
      responses: {
        200: { description: 'The event stream.', contentType: 'text/event-stream' },
        ...sliceErrors,
        429: { description: "The slicer service's queue is full (ERR_TOO_MANY_JOBS)." },
        503: { description: 'The slicer service is disabled, unreachable, incompatible or does not slice (ERR_UNAVAILABLE).' },
      },
      handler: proxied(({ req, res, principal }) =>
        workspace.use(async (dir) => {
          const owner = ownerOf(principal);
          await remote.probe.requireUsable();
          const form = await receiveSliceUpload(req, dir);
          const gone = new AbortController();
          res.once('abort', () => gone.abort());
          const upstream = await remote.probe.watch(() =>
            remote.client.slice(
              {
                modelPath: form.model.path,
                modelName: form.model.fileName || 'model.stl',
                printerId: form.printerId,
                filamentIds: form.filamentIds,
                processId: form.processId,
                overrides: form.overrides,
                heightChanges: form.heightChanges,
              },
              'text/event-stream',
              gone.signal,
            ),
          );
          const { body } = upstream;
          if (body === null) throw new RemoteUnavailableError('the slicer service answered the slice without a body');
          const jobId = upstream.headers.get('x-job-id');
          if (jobId !== null) remote.owners.remember(jobId, owner);
          const stream = new EventStream(req, res, { keepAliveMs: RELAY_KEEPALIVE_MS, headers: jobId === null ? {} : { 'x-job-id': jobId } });
          stream.open(jobId === null ? 'relaying the slicer service' : `job ${jobId}`);
          stream.onClose(() => gone.abort());
          let terminal = false;
          try {
            await remote.probe.watch(() =>
              followSliceStream(body, {
                signal: gone.signal,
                clean: (text) => remote.client.clean(text),
                ...(remote.streamIdleMs === undefined ? {} : { idleMs: remote.streamIdleMs }),
                onEvent(event) {
                  if (event.type === 'done' || event.type === 'error') terminal = true;
                  stream.send(event.type, relayedData(event, principal, remote));
                },
              }),
            );
          } catch (err) {
            if (!terminal && !gone.signal.aborted) {
              const message = err instanceof Error ? err.message : String(err);
              stream.send('error', { message, code: err instanceof AppError ? err.code : ErrorCode.unavailable });
            }
          }
          stream.end();
        }),
      ),
    },
    {
      method: 'post',
      path: '/api/slicer/remote/slice-and-send',
      level: 'print',
      tag: TAG,
      summary: 'Slice (with fallback) and start the print on a dashboard printer',
      description:
        "The slice form, where `printer_id` names the dashboard printer and `printer_profile_id` the printer profile (default: the printer's " +
        '`printer_profile`). The printer is checked before slicing and again before the upload; the file is stored as a result, uploaded by the ' +
        "printer's driver (under a name every printer takes: ASCII letters, digits, `._()+-`) and started. A file the printer cannot print " +
        '(plain G-code for a Bambu Lab printer, a .gcode.3mf for a Marlin one) is refused with 422 before the upload. When the printer refuses ' +
        "after the slice, the error's `details.result` is the stored result (download it from its `gcode_url`), and `details.uploaded_as` names " +
        'the file on the printer when only the start failed.',
      body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: SLICE_BODY_MAX_BYTES, schema: SLICE_AND_SEND_FORM_SCHEMA },
      responses: {
        200: { description: 'Sliced, uploaded and started.', schema: SEND_RESULT_SCHEMA },
        ...sliceErrors,
        404: { description: 'Unknown printer (ERR_NOT_FOUND) or profile (ERR_PROFILE_NOT_FOUND).' },
        409: { description: 'The printer is not connected, busy or in error (ERR_CONFLICT); after the slice, with `details.result`.' },
        422: {
          description:
            "The printer cannot store files, or cannot print the sliced file's format (ERR_UNSUPPORTED_ACTION, with `details.result`), " +
            'or the model is broken (ERR_BAD_MODEL).',
        },
        503: { description: 'No backend could slice, or the printers are not available (ERR_UNAVAILABLE).' },
      },
      handler: proxied(({ req, res, principal }) =>
        workspace.use(async (dir) => {
          const owner = ownerOf(principal);
          const multipart = await readSliceUpload(req, dir);
          const { printers: access, printerId, printer } = sendTarget(deps.printers, multipart);
          const result = await sliceToResult(sliceFormFor(printer, multipart), disconnectSignal(req, res), owner);
          return sendStoredResult(access, printerId, result, remote.results.filePath(result), { principal, spools: deps.spools });
        }),
      ),
    },
  ];
}

/**
 * The data of a relayed event: `progress` and `layer` as sent; `done` as job-view.ts shows a
 * result; the text of `error` cleaned (and its paths hidden from all but admins).
 */
function relayedData(event: UpstreamEvent, principal: Principal | null, remote: RemoteSlicing): string {
  if (event.type !== 'done' && event.type !== 'error') return event.data;
  const view = { paths: isAdmin(principal), clean: (text: string) => remote.client.clean(text), ownerOf: () => null };
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    const text = view.clean(event.data);
    return view.paths ? text : hidePaths(text);
  }
  return JSON.stringify(resultView(data, view) ?? null);
}
