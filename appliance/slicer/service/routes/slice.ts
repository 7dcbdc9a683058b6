/**
 * POST /api/slice: the upload becomes a queued job, then the reply follows it, either as an
 * event stream (progress, layer, done | error) or as one JSON object once it has finished. A
 * client that goes away only stops following: the job runs on and its files stay downloadable.
 */
import { rm } from 'node:fs/promises';
import type { Request, Response } from 'hyper-express';
import { negotiate } from '../../../common/accept.js';
import { AppError, ErrorCode } from '../../../common/errors.js';
import { holdOpen } from '../../../common/long-response.js';
import { discardUploads, readMultipart, UNLIMITED_BODY } from '../../../common/multipart.js';
import { EventStream } from '../../../common/sse.js';
import { parseSliceForm, SLICE_FILE_FIELDS } from '../../run/slice-form.js';
import type { RouteInstaller, ServiceContext } from '../context.js';
import type { Job } from '../job.js';
import { createJob } from '../job-factory.js';

export const ERR_NOT_ACCEPTABLE = 'ERR_NOT_ACCEPTABLE';
const EVENT_STREAM = 'text/event-stream';
const JSON_TYPE = 'application/json';

function busy(): AppError {
  return new AppError(ErrorCode.tooManyJobs, 429, 'the slicer is busy: the job queue is full');
}

function streamJob(req: Request, res: Response, job: Job, ctx: ServiceContext): void {
  const stream = new EventStream(req, res, { keepAliveMs: ctx.options.keepalive_s * 1000, headers: { 'x-job-id': job.id } });
  stream.open(`job ${job.id} ${job.state}`);
  const finish = (): void => {
    const error = job.error;
    if (job.state === 'done') stream.send('done', job.result);
    else if (error) stream.send('error', { message: error.message, code: error.code });
    stream.end();
  };
  if (job.isFinished) {
    finish();
    return;
  }
  const unsubscribe = job.subscribe((e) => {
    if (e.type === 'progress') stream.send('progress', { stage: e.stage, pct: e.pct });
    else if (e.type === 'layer') stream.send('layer', { layer: e.layer, total_layers: e.total_layers });
    else finish();
  });
  stream.onClose(unsubscribe);
}

async function replyWhenFinished(req: Request, res: Response, job: Job): Promise<void> {
  res.header('x-job-id', job.id);
  holdOpen(req);
  await job.finished;
  const error = job.error;
  if (job.state === 'done') res.json(job.result);
  else if (error) throw new AppError(error.code, job.failureStatus, error.message);
}

export const installSliceRoutes: RouteInstaller = (app, ctx) => {
  app.post('/api/slice', UNLIMITED_BODY, async (req, res) => {
    const mode = negotiate(req.headers.accept, [EVENT_STREAM, JSON_TYPE]);
    if (mode === null) throw new AppError(ERR_NOT_ACCEPTABLE, 406, `POST /api/slice answers ${EVENT_STREAM} or ${JSON_TYPE}`);
    // Refuse before the upload when the queue is already full; the queue checks again on submit.
    if (!ctx.queue.hasRoom) throw busy();
    await ctx.store.requireRoom(Number(req.headers['content-length']) || 0);
    const form = await readMultipart(req, ctx.store.uploadsDir, ctx.uploadLimits, SLICE_FILE_FIELDS);
    let job: Job;
    try {
      job = await createJob(ctx.config.catalogue, ctx.store, parseSliceForm(form));
    } catch (err) {
      await discardUploads(form);
      throw err;
    }
    try {
      ctx.queue.submit(job);
    } catch (err) {
      await rm(job.dir, { recursive: true, force: true });
      throw err;
    }
    if (mode === EVENT_STREAM) streamJob(req, res, job, ctx);
    else await replyWhenFinished(req, res, job);
  });
};
