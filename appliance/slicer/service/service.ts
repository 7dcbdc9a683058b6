/**
 * printyard-slicer put together: the config dir, the job store and queue, the HTTP server with
 * its two gates (shutdown, token) and the routes of the REST contract.
 */
import type { Server } from 'hyper-express';
import { bearerMatches } from '../../common/bearer.js';
import { AppError, ErrorCode } from '../../common/errors.js';
import { sendError } from '../../common/http-errors.js';
import { closeServer, createHttpServer, listen } from '../../common/http-server.js';
import type { Logger } from '../../common/logger.js';
import type { UploadLimits } from '../../common/multipart.js';
import type { InflateLimits } from '../../common/zip.js';
import { ConfigDirectory } from './config-dir.js';
import type { ServiceContext } from './context.js';
import { JobQueue, shuttingDown } from './job-queue.js';
import { JobStore } from './job-store.js';
import type { SlicerOptions } from './options.js';
import { installInfoRoutes } from './routes/info.js';
import { installJobRoutes } from './routes/jobs.js';
import { installPreviewRoutes } from './routes/preview.js';
import { installPrinterRoutes } from './routes/printers.js';
import { installProfileRoutes } from './routes/profiles.js';
import { installSliceRoutes } from './routes/slice.js';

/** Paths anyone may call, token or not: probes must work before a client is configured. */
const PUBLIC_PATHS = new Set(['/api/health', '/api/version']);
/** Body limit of the routes that take no upload. */
const SMALL_BODY_BYTES = 1024 * 1024;
/** After the jobs are done, open responses get this long to complete before the port closes. */
const CLOSE_TIMEOUT_MS = 5000;

export interface SlicerService {
  readonly port: number;
  readonly url: string;
  /** Graceful stop: 503 for new requests, waiting jobs cancelled, running ones get the grace period. */
  stop(): Promise<void>;
  /** Cancels running jobs at once (a second Ctrl-C while stopping). */
  hurry(): void;
}

function megabytes(mb: number): number {
  return Math.round(mb * 1024 * 1024);
}

export function inflateLimits(options: Pick<SlicerOptions, 'max_inflate_mb' | 'max_inflate_ratio'>): InflateLimits {
  return { maxBytes: megabytes(options.max_inflate_mb), maxRatio: options.max_inflate_ratio };
}

function uploadLimits(options: SlicerOptions): UploadLimits {
  return { maxFileBytes: megabytes(options.max_upload_mb), maxFieldBytes: 256 * 1024, maxFiles: 1, maxFields: 16 };
}

function installGates(app: Server, ctx: ServiceContext): void {
  app.use((req, res, next) => {
    if (ctx.draining) return sendError(res, shuttingDown(), ctx.log);
    const token = ctx.options.rest_token;
    if (token !== '' && !PUBLIC_PATHS.has(req.path) && !bearerMatches(req.headers.authorization, token)) {
      return sendError(res, new AppError(ErrorCode.unauthorized, 401, 'missing or wrong bearer token'), ctx.log);
    }
    next();
  });
  app.set_error_handler((_req, res, err) => sendError(res, err, ctx.log));
  app.set_not_found_handler((req, res) => sendError(res, new AppError('ERR_NOT_FOUND', 404, `no route ${req.method} ${req.path}`), ctx.log));
}

export async function startSlicerService(options: SlicerOptions, log: Logger): Promise<SlicerService> {
  const config = await ConfigDirectory.open(options.config_dir, log.child('config'));
  const minFreeBytes = megabytes(options.min_free_mb);
  const store = new JobStore(
    options.jobs_dir,
    { keepJobs: options.keep_jobs, keepMs: options.keep_hours * 3_600_000 },
    log.child('jobs'),
    minFreeBytes,
  );
  await store.open();
  const queue = new JobQueue(
    store,
    {
      workers: options.workers,
      queueSize: options.queue_size,
      jobTimeoutMs: options.job_timeout_s * 1000,
      engineThreads: options.engine_threads,
      maxOutputBytes: megabytes(options.max_output_mb),
      minFreeBytes,
      inflateLimits: inflateLimits(options),
    },
    log.child('jobs'),
  );
  const ctx: ServiceContext = {
    options,
    log,
    config,
    store,
    queue,
    uploadLimits: uploadLimits(options),
    inflateLimits: inflateLimits(options),
    startedAt: new Date(),
    draining: false,
  };

  const app = createHttpServer({ maxBodyBytes: SMALL_BODY_BYTES, log: log.child('http') });
  installGates(app, ctx);
  for (const install of [installInfoRoutes, installProfileRoutes, installSliceRoutes, installJobRoutes, installPreviewRoutes, installPrinterRoutes]) {
    install(app, ctx);
  }
  let port: number;
  try {
    port = await listen(app, options.rest_bind, options.rest_port);
  } catch (err) {
    store.close();
    throw err;
  }
  config.watch(options.reload_interval_s * 1000);
  const host = options.rest_bind.includes(':') ? `[${options.rest_bind}]` : options.rest_bind;

  let stopping: Promise<void> | null = null;
  return {
    port,
    url: `http://${host}:${port}`,
    stop(): Promise<void> {
      stopping ??= (async () => {
        ctx.draining = true;
        config.stop();
        await queue.shutdown(options.shutdown_grace_s * 1000);
        store.close();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          app.shutdown(),
          new Promise((resolve) => {
            timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
          }),
        ]);
        clearTimeout(timer);
        closeServer(app);
      })();
      return stopping;
    },
    hurry(): void {
      queue.cancelRunning();
    },
  };
}
