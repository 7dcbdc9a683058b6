/** What the route handlers share: the options, the config dir, the jobs, and the service's state. */
import type { Server } from 'hyper-express';
import type { Logger } from '../../common/logger.js';
import type { UploadLimits } from '../../common/multipart.js';
import type { InflateLimits } from '../../common/zip.js';
import type { ConfigDirectory } from './config-dir.js';
import type { JobQueue } from './job-queue.js';
import type { JobStore } from './job-store.js';
import type { SlicerOptions } from './options.js';

export interface ServiceContext {
  options: SlicerOptions;
  log: Logger;
  config: ConfigDirectory;
  store: JobStore;
  queue: JobQueue;
  uploadLimits: UploadLimits;
  /** What a 3MF's parts may inflate to (--max-inflate-mb, --max-inflate-ratio). */
  inflateLimits: InflateLimits;
  startedAt: Date;
  /** Set on shutdown: new requests are answered with 503. */
  draining: boolean;
}

export type RouteInstaller = (app: Server, ctx: ServiceContext) => void;
