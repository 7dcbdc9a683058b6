/**
 * The job endpoints: the queue (GET /api/jobs), one record, cancel, and the files of a finished
 * job (G-code or Bambu .gcode.3mf, and the top-down toolpath preview).
 */
import path from 'node:path';
import type { Response } from 'hyper-express';
import { AppError, ErrorCode } from '../../../common/errors.js';
import { sendFile } from '../../../common/download.js';
import type { ServiceContext, RouteInstaller } from '../context.js';
import type { Job } from '../job.js';
import { isJobId, PREVIEW_FILE } from '../job-store.js';

export const ERR_JOB_NOT_DONE = 'ERR_JOB_NOT_DONE';

const GCODE_TYPE = 'text/x.gcode';
/** IANA's type for 3MF packages; a Bambu .gcode.3mf is one. */
const GCODE_3MF_TYPE = 'model/3mf';

function findJob(ctx: ServiceContext, id: string): Job {
  const job = isJobId(id) ? ctx.store.get(id) : undefined;
  if (job === undefined) throw new AppError(ErrorCode.jobNotFound, 404, `unknown job "${id}"`);
  return job;
}

function finishedJob(ctx: ServiceContext, id: string, what: string): Job {
  const job = findJob(ctx, id);
  if (job.state !== 'done') {
    const why = job.isFinished ? `it ${job.state === 'failed' ? 'failed' : 'was cancelled'}` : `it is ${job.state}`;
    throw new AppError(ERR_JOB_NOT_DONE, 409, `job ${id} has no ${what}: ${why}`);
  }
  return job;
}

async function sendJobFile(res: Response, job: Job, file: string, contentType: string, fileName?: string): Promise<void> {
  try {
    await sendFile(res, file, { contentType, ...(fileName === undefined ? {} : { fileName }) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError(ErrorCode.jobNotFound, 404, `the files of job ${job.id} are gone`);
    throw err;
  }
}

export const installJobRoutes: RouteInstaller = (app, ctx) => {
  app.get('/api/jobs', (_req, res) => {
    res.json({ ...ctx.queue.snapshot(), limits: { workers: ctx.options.workers, queue_size: ctx.options.queue_size } });
  });

  app.get('/api/jobs/:id', (req, res) => {
    res.json(findJob(ctx, req.path_parameters.id).toJSON());
  });

  app.post('/api/jobs/:id/cancel', async (req, res) => {
    const job = await ctx.queue.cancel(findJob(ctx, req.path_parameters.id).id);
    res.json(job.toJSON());
  });

  app.get('/api/jobs/:id/gcode', async (req, res) => {
    const job = finishedJob(ctx, req.path_parameters.id, 'G-code');
    const result = job.result;
    if (result === null) throw new AppError(ErrorCode.internal, 500, `job ${job.id} is done but has no result`);
    const type = result.format === 'gcode.3mf' ? GCODE_3MF_TYPE : GCODE_TYPE;
    await sendJobFile(res, job, result.gcode_path, type, path.basename(result.gcode_path));
  });

  app.get('/api/jobs/:id/preview.png', async (req, res) => {
    const job = finishedJob(ctx, req.path_parameters.id, 'preview');
    await sendJobFile(res, job, path.join(job.dir, PREVIEW_FILE), 'image/png');
  });
};
