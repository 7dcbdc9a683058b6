/**
 * The slicer service proxy routes besides slicing (slice-routes.ts): status and configuration,
 * the upstream catalogue and jobs, downloads, previews, and the files of stored results.
 * Levels: reading is `view`, cancelling a job `print` (one's own jobs; an admin's any),
 * changing the configuration `admin`. A service that cannot be used answers 503 ERR_UNAVAILABLE
 * with the public reason (errors.ts); its answers about the request keep their status, code and
 * (cleaned) message. Job records carry their owner, and server paths only for admins (job-view.ts).
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { sendFile } from '../../../common/download.js';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { Logger } from '../../../common/logger.js';
import type { DashboardContext } from '../../feature.js';
import { Reply, type Principal, type RouteContext, type RouteSpec } from '../../http/route.js';
import { validationError } from '../../http/validate.js';
import { GCODE_3MF_TYPE, GCODE_TYPE } from '../slice-http.js';
import { assertMayCancel, isAdmin } from '../ownership.js';
import { configurePatch, overriddenKeys, type ConfigureBody } from './configure.js';
import { asHttpError, RemoteUnavailableError } from './errors.js';
import { readFirstLayer } from './first-layer.js';
import { firstLayerSvg } from './first-layer-svg.js';
import { gcodeLines } from './gcode-source.js';
import { jobListView, jobView, type JobViewOptions } from './job-view.js';
import type { RemoteStatus } from './probe.js';
import { relayFile, responseGone } from './relay.js';
import type { RemoteSlicing } from './remote-slicing.js';
import {
  CONFIGURE_BODY_SCHEMA,
  CONFIGURE_RESPONSE_SCHEMA,
  JOB_ID_SCHEMA,
  JOB_LIST_SCHEMA,
  JOB_RECORD_SCHEMA,
  PROFILE_LIST_SCHEMA,
  REMOTE_STATUS_SCHEMA,
  RESULT_ID_SCHEMA,
} from './schemas.js';

export const TAG = 'slicer_service';
const PROFILE_KIND = { type: 'string', enum: ['printer', 'filament', 'process', 'all'] };
const unavailable = { description: 'The slicer service is disabled, unreachable, incompatible or refused the token (ERR_UNAVAILABLE).' };

/** A handler whose "unavailable" failures become the dashboard's 503. */
export function proxied<T>(handler: (ctx: RouteContext) => Promise<T>): (ctx: RouteContext) => Promise<T> {
  return async (ctx) => {
    try {
      return await handler(ctx);
    } catch (err) {
      throw asHttpError(err);
    }
  };
}

/** The status with the token shown only as set or not, and for admins what made the probe fail. */
function statusView(status: RemoteStatus, token: string, principal: Principal | null, detail: string | null): Record<string, unknown> {
  return {
    ...status,
    ...(token === '' ? {} : { token: '***' }),
    token_set: token !== '',
    ...(isAdmin(principal) ? { error_detail: detail } : {}),
  };
}

export function remoteRoutes(ctx: Pick<DashboardContext, 'settings'>, remote: RemoteSlicing, log: Logger): RouteSpec[] {
  const { client, probe } = remote;
  const settings = () => ctx.settings.current.slicer_service;
  const viewOf = (principal: Principal | null): JobViewOptions => ({
    paths: isAdmin(principal),
    clean: (text) => client.clean(text),
    ownerOf: (jobId) => remote.owners.ownerOf(jobId),
  });
  /**
   * Every proxied call needs the probe to have found a slicer service at the address (cached 60 s):
   * an address that is not one passes nothing on, so its answers cannot be used to map ports.
   */
  const usable = (): Promise<void> => probe.requireUsable();

  return [
    {
      method: 'get',
      path: '/api/slicer/remote/status',
      level: 'view',
      tag: TAG,
      summary: 'Slicer service status',
      description:
        'The last probe, cached 60 s; `force=1` probes now. The token is shown only as `***` with `token_set`. `error` is the same short reason ' +
        'for every failure to reach the address (refused, timed out, not a slicer service); admins also get `error_detail`, what happened.',
      query: { force: { type: 'string', enum: ['0', '1', 'false', 'true'], description: '1 or true: probe now.' } },
      responses: { 200: { description: 'The status.', schema: REMOTE_STATUS_SCHEMA } },
      handler: async ({ query, principal }) => {
        const status = await probe.status(query.force === '1' || query.force === 'true');
        return statusView(status, settings().token, principal, probe.detail());
      },
    },
    {
      method: 'post',
      path: '/api/slicer/remote/configure',
      level: 'admin',
      tag: TAG,
      summary: 'Configure the slicer service integration',
      description:
        'Saves url, token and enabled to config.json (they survive a restart) and probes the new settings. A token of `***` (or none) keeps the ' +
        "stored one, but only for a URL on the same origin (scheme, host and port): a URL on another origin needs the token again, or `''` for " +
        'none. A URL with a user name or password is refused. SLICER_URL and SLICER_TOKEN in the environment still win; `overridden` lists the ' +
        'keys they hold; while SLICER_TOKEN holds the token without SLICER_URL, the URL cannot move to another origin here (409).',
      body: { kind: 'json', schema: CONFIGURE_BODY_SCHEMA, maxBytes: 16 * 1024 },
      responses: {
        200: { description: 'The status after the change.', schema: CONFIGURE_RESPONSE_SCHEMA },
        400: { description: 'A value is not valid, the URL carries credentials, or a new origin without the token (ERR_VALIDATION).' },
        409: { description: 'The token comes from SLICER_TOKEN and the URL would move to another origin (ERR_CONFLICT).' },
      },
      handler: async ({ body, principal }) => {
        const patch = configurePatch(ctx.settings, body as ConfigureBody);
        if (Object.keys(patch).length > 0) await ctx.settings.update({ slicer_service: patch });
        const status = await probe.status();
        return { ...statusView(status, settings().token, principal, probe.detail()), overridden: overriddenKeys(ctx.settings, patch) };
      },
    },
    {
      method: 'get',
      path: '/api/slicer/remote/profiles',
      level: 'view',
      tag: TAG,
      summary: "The slicer service's profile catalogue",
      description: '`kind` (default all) and `vendor` are passed on to the service.',
      query: { kind: PROFILE_KIND, vendor: { type: 'string', minLength: 1, maxLength: 200 } },
      responses: { 200: { description: 'The catalogue.', schema: PROFILE_LIST_SCHEMA }, 503: unavailable },
      handler: proxied(async ({ query }) => {
        await usable();
        const profiles = await probe.watch(() => client.profiles({ kind: query.kind ?? 'all', ...(query.vendor ? { vendor: query.vendor } : {}) }));
        return { profiles };
      }),
    },
    {
      method: 'get',
      path: '/api/slicer/remote/jobs',
      level: 'view',
      tag: TAG,
      summary: "The slicer service's jobs",
      description:
        'Running, queued and finished jobs as the service lists them, each with its `owner` (who started it through this dashboard, else null) ' +
        "and the dashboard's download links. Server paths (`gcode_path` and the like) are shown to admins only.",
      responses: { 200: { description: 'The job list.', schema: JOB_LIST_SCHEMA }, 503: unavailable },
      handler: proxied(async ({ principal }) => {
        await usable();
        return jobListView(await probe.watch(() => client.jobs()), viewOf(principal));
      }),
    },
    {
      method: 'get',
      path: '/api/slicer/remote/jobs/:id/gcode',
      level: 'view',
      tag: TAG,
      summary: 'Download the G-code of a finished job',
      description: "Streamed through with the service's content type (`text/x.gcode`, or `model/3mf` for a Bambu `.gcode.3mf`) and file name.",
      params: { id: JOB_ID_SCHEMA },
      responses: {
        200: { description: 'The file.', contentType: GCODE_TYPE },
        404: { description: 'Unknown job (ERR_JOB_NOT_FOUND).' },
        409: { description: 'The job is not done (ERR_JOB_NOT_DONE).' },
        503: unavailable,
      },
      handler: proxied(async ({ params, res }) => {
        await usable();
        const gone = responseGone(res);
        const upstream = await probe.watch(() => client.jobFile(params.id, 'gcode', gone.signal));
        await relayFile(res, upstream, GCODE_TYPE, log);
      }),
    },
    {
      method: 'post',
      path: '/api/slicer/remote/jobs/:id/cancel',
      level: 'print',
      tag: TAG,
      summary: 'Cancel a job of the slicer service',
      description: 'A print user may cancel the jobs they started through this dashboard; an admin any job.',
      params: { id: JOB_ID_SCHEMA },
      responses: {
        200: { description: "The job's final record.", schema: JOB_RECORD_SCHEMA },
        403: { description: 'The job was started by someone else, or not through this dashboard (ERR_FORBIDDEN).' },
        404: { description: 'Unknown job (ERR_JOB_NOT_FOUND).' },
        409: { description: 'The job has finished already (ERR_JOB_FINISHED).' },
        503: unavailable,
      },
      handler: proxied(async ({ params, principal }) => {
        assertMayCancel(principal, remote.owners.ownerOf(params.id), `job ${params.id}`);
        await usable();
        return jobView(await probe.watch(() => client.cancelJob(params.id)), viewOf(principal));
      }),
    },
    {
      method: 'get',
      path: '/api/slicer/remote/preview',
      level: 'view',
      tag: TAG,
      summary: 'Preview of a sliced job: PNG, or SVG of the first layer',
      description:
        '`job` is a job of the slicer service; `result` a stored result of POST /api/slicer/remote/slice (any backend). ' +
        "`format=png` (default) relays the service's top-down preview (jobs only); `format=svg` draws the first layer from the G-code: " +
        'extrusion paths as polylines, as wide as the extrusion, coloured by feature type (`;TYPE:`), one group per type. ' +
        'Only as much of the G-code as the first layer needs is read.',
      query: {
        job: JOB_ID_SCHEMA,
        result: RESULT_ID_SCHEMA,
        format: { type: 'string', enum: ['png', 'svg'], default: 'png' },
      },
      responses: {
        200: { description: 'The picture (`image/png` or `image/svg+xml`).', contentType: 'image/png' },
        404: { description: 'Unknown job or result.' },
        409: { description: 'The job is not done (ERR_JOB_NOT_DONE).' },
        503: unavailable,
      },
      handler: proxied(async ({ query, res }) => {
        const format = query.format ?? 'png';
        const { job: jobId, result: resultId } = query;
        if (resultId !== undefined && jobId === undefined) {
          if (format === 'png') throw validationError([{ path: 'query/format', message: 'stored results have an SVG preview only (format=svg)' }]);
          const stored = await remote.results.get(resultId);
          const file = createReadStream(remote.results.filePath(stored));
          try {
            return svgReply(firstLayerSvg(await readFirstLayer(gcodeLines(file)), `First layer of ${stored.file_name}`));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOENT')
              throw new AppError(ErrorCode.notFound, 404, `the file of result ${stored.id} is gone`);
            throw err;
          } finally {
            file.destroy();
          }
        }
        if (jobId === undefined || resultId !== undefined) {
          throw validationError([{ path: 'query/job', message: 'give exactly one of job or result' }]);
        }
        await usable();
        const gone = responseGone(res);
        if (format === 'png') {
          await relayFile(res, await probe.watch(() => client.jobFile(jobId, 'preview.png', gone.signal)), 'image/png', log);
          return undefined;
        }
        const upstream = await probe.watch(() => client.jobFile(jobId, 'gcode', gone.signal));
        if (upstream.body === null) throw new RemoteUnavailableError(`the slicer service sent the G-code of job ${jobId} without a body`);
        const source = Readable.fromWeb(upstream.body as WebReadableStream<Uint8Array>);
        try {
          const layer = await readFirstLayer(gcodeLines(source));
          return svgReply(firstLayerSvg(layer, `First layer of job ${jobId}`));
        } finally {
          source.destroy();
        }
      }),
    },
    {
      method: 'get',
      path: '/api/slicer/results/:id/gcode',
      level: 'view',
      tag: TAG,
      summary: 'Download the G-code of a stored slice result',
      description: 'Results of POST /api/slicer/remote/slice are kept 24 h (the newest 20).',
      params: { id: RESULT_ID_SCHEMA },
      responses: { 200: { description: 'The file.', contentType: GCODE_TYPE }, 404: { description: 'Unknown or expired result (ERR_NOT_FOUND).' } },
      handler: async ({ params, res }) => {
        const stored = await remote.results.get(params.id);
        try {
          await sendFile(res, remote.results.filePath(stored), {
            contentType: stored.format === 'gcode.3mf' ? GCODE_3MF_TYPE : GCODE_TYPE,
            fileName: stored.file_name,
          });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT')
            throw new AppError(ErrorCode.notFound, 404, `the file of result ${params.id} is gone`);
          throw err;
        }
      },
    },
  ];
}

function svgReply(svg: string): Reply {
  return new Reply(200, svg, { 'content-type': 'image/svg+xml; charset=utf-8' });
}
