/**
 * The queue's REST API: jobs, a dispatch round on demand, and the plates. Reading needs `view`;
 * managing the queue and confirming plates need `print` (admin includes it).
 */
import { rm } from 'node:fs/promises';
import { Reply, type RouteSpec } from '../http/route.js';
import { validationError } from '../http/validate.js';
import { ownerOf } from '../slicing/ownership.js';
import { JOB_BODY_MAX_BYTES, JOB_FILE_LIMIT_BYTES, parseJobForm, receiveJobForm } from './job-input.js';
import type { JobPatch, QueueService } from './queue-service.js';
import {
  dispatchResultSchema,
  errorSchemaRef,
  jobFormSchema,
  jobIdSchema,
  jobListSchema,
  jobSchema,
  jobUpdateSchema,
  pauseBodySchema,
  pauseSchema,
  plateSchema,
  resumeBodySchema,
} from './schemas.js';

export const TAG = 'queue';
const idParam = { id: jobIdSchema };
const printerParam = { id: { type: 'string', minLength: 1, maxLength: 64 } };
const notFound = { description: 'No such job (ERR_NOT_FOUND).', schema: errorSchemaRef };
const invalid = { description: 'A field is not valid (ERR_VALIDATION); `details` names each.', schema: errorSchemaRef };
const conflict = { description: "Not allowed in the job's state (ERR_CONFLICT); `details.state` names it.", schema: errorSchemaRef };

export function queueRoutes(queue: QueueService, dataDir: string): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/queue',
      level: 'view',
      tag: TAG,
      summary: 'List the queue',
      description:
        'Every job in queue order (position), with its state, copies and why it waits (`waiting_reason`), and whether the whole ' +
        'queue is paused (`pause`: each reason, who paused and when).',
      responses: { 200: { description: 'The jobs and the pause.', schema: jobListSchema } },
      handler: () => ({ items: queue.list(), pause: queue.pauseView() }),
    },
    {
      method: 'post',
      path: '/api/queue/pause',
      level: 'print',
      tag: TAG,
      summary: 'Pause the whole queue',
      description:
        'Nothing new is sent to a printer while any reason pauses the queue (prints already running go on); jobs that would go out ' +
        'wait with `waiting_reason` "queue paused: <reasons>". Each reason is its own pause: pausing again for the same reason ' +
        'changes nothing. Announced as `queue.update` {action: "paused", pause}.',
      body: { kind: 'json', schema: pauseBodySchema },
      responses: { 200: { description: 'The pause now.', schema: pauseSchema }, 400: invalid },
      handler: ({ body, principal }) => queue.pause((body as { reason: string }).reason.trim(), principal?.name ?? 'unknown'),
    },
    {
      method: 'post',
      path: '/api/queue/resume',
      level: 'print',
      tag: TAG,
      summary: 'Resume the queue',
      description:
        'Ends the pause of `reason`, or of every reason when none is given; the queue runs again once no reason is left (a dispatch ' +
        'round follows). Announced as `queue.update` {action: "resumed", pause}.',
      body: { kind: 'json', schema: resumeBodySchema },
      responses: { 200: { description: 'The pause now.', schema: pauseSchema }, 400: invalid },
      handler: ({ body }) => queue.resume((body as { reason?: string }).reason?.trim() ?? null),
    },
    {
      method: 'post',
      path: '/api/queue',
      level: 'print',
      tag: TAG,
      summary: 'Add a job',
      description:
        'A multipart form with the print-ready `file` (`.gcode` for Marlin printers, `.gcode.3mf` for Bambu Lab printers, at most ' +
        `${JOB_FILE_LIMIT_BYTES / (1024 * 1024)} MB) and the job's fields. Filament requirements not given are read from the file.`,
      body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: JOB_BODY_MAX_BYTES, schema: jobFormSchema },
      responses: {
        201: { description: 'The new job.', schema: jobSchema },
        400: invalid,
        413: { description: 'The file is too large (ERR_PAYLOAD_TOO_LARGE).', schema: errorSchemaRef },
      },
      async handler({ req, principal }) {
        const { form, dir } = await receiveJobForm(req, dataDir);
        try {
          const parsed = parseJobForm(form);
          return new Reply(201, await queue.add(form, parsed, ownerOf(principal)));
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    },
    {
      method: 'post',
      path: '/api/queue/dispatch',
      level: 'print',
      tag: TAG,
      summary: 'Run a dispatch round now',
      description: 'Answers with the copies this round sent off (each one then uploads and starts in the background).',
      responses: { 200: { description: 'The copies dispatched.', schema: dispatchResultSchema } },
      handler: async () => ({ dispatched: await queue.dispatchNow() }),
    },
    {
      method: 'get',
      path: '/api/queue/plates',
      level: 'view',
      tag: TAG,
      summary: "Every printer's plate",
      responses: {
        200: {
          description: 'The plates.',
          schema: { type: 'object', additionalProperties: false, required: ['items'], properties: { items: { type: 'array', items: plateSchema } } },
        },
      },
      handler: () => ({ items: queue.plates() }),
    },
    {
      method: 'get',
      path: '/api/queue/:id',
      level: 'view',
      tag: TAG,
      summary: 'Get a job',
      params: idParam,
      responses: { 200: { description: 'The job.', schema: jobSchema }, 404: notFound },
      handler: ({ params }) => queue.get(params.id),
    },
    {
      method: 'get',
      path: '/api/queue/:id/thumbnail.png',
      level: 'view',
      tag: TAG,
      summary: "The job's plate picture",
      description: "The PNG taken from the file (G-code `; thumbnail begin`, a project's `Metadata/plate_1.png`, a model's slice).",
      params: idParam,
      responses: {
        200: { description: 'The picture.', contentType: 'image/png' },
        404: { description: 'No such job, or its file has no picture (ERR_NOT_FOUND).', schema: errorSchemaRef },
      },
      handler: async ({ params }) => new Reply(200, await queue.thumbnail(params.id), { 'content-type': 'image/png', 'cache-control': 'no-cache' }),
    },
    {
      method: 'put',
      path: '/api/queue/:id',
      level: 'print',
      tag: TAG,
      summary: 'Change a job',
      description:
        'Name, priority and position change in any state but done and cancelled (those only move). Requirements change while nothing ' +
        'of the job is on a printer. Copies go no lower than the copies dispatched, printing, done or failed. `state` holds, releases, ' +
        'requeues (a failed job: its failed copies print again) or cancels.',
      params: idParam,
      body: { kind: 'json', schema: jobUpdateSchema },
      responses: { 200: { description: 'The job.', schema: jobSchema }, 400: invalid, 404: notFound, 409: conflict },
      handler: ({ params, body }) => {
        if (Object.keys(body as JobPatch).length === 0) throw validationError([{ path: 'body', message: 'names nothing to change' }]);
        return queue.update(params.id, body as JobPatch);
      },
    },
    {
      method: 'delete',
      path: '/api/queue/:id',
      level: 'print',
      tag: TAG,
      summary: 'Remove a job',
      description: 'With its file. Refused (409) while a copy is being sent or printed.',
      params: idParam,
      responses: { 204: { description: 'Removed.' }, 404: notFound, 409: conflict },
      handler: async ({ params }) => {
        await queue.remove(params.id);
      },
    },
    {
      method: 'get',
      path: '/api/printers/:id/plate',
      level: 'view',
      tag: TAG,
      summary: "A printer's plate",
      params: printerParam,
      responses: { 200: { description: 'The plate.', schema: plateSchema }, 404: { description: 'No such printer.', schema: errorSchemaRef } },
      handler: ({ params }) => queue.plate(params.id),
    },
    {
      method: 'post',
      path: '/api/printers/:id/plate-cleared',
      level: 'print',
      tag: TAG,
      summary: "Confirm a printer's plate clear",
      description:
        'The queue sends nothing to a printer whose plate is not confirmed clear; a print that ends leaves it occupied. Announced as ' +
        '`printer.plate` on the WebSocket; a dispatch round follows.',
      params: printerParam,
      responses: {
        200: { description: 'The plate.', schema: plateSchema },
        404: { description: 'No such printer.', schema: errorSchemaRef },
        409: { description: 'The printer is printing, or a print is being sent to it (ERR_CONFLICT).', schema: errorSchemaRef },
      },
      handler: ({ params, principal }) => queue.plateCleared(params.id, principal?.name ?? 'unknown'),
    },
  ];
}
