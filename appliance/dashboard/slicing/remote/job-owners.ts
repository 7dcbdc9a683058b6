/**
 * Which of the dashboard's users started each job it created on the slicer service (the service
 * knows only the dashboard's token), so that the proxy can let a print user cancel their own jobs
 * and no one else's, and the job list can say whose a job is. Kept in the `slicer-job-owners`
 * JSON store so that it outlives a restart of the dashboard, bounded to the newest entries (the
 * service itself keeps 20 finished jobs by default): one write costs the same however long the
 * dashboard has run. A job the dashboard did not create has no owner here.
 */
import type { JsonStore, JsonStores } from '../../../common/json-store.js';
import type { Logger } from '../../../common/logger.js';
import type { JobOwner } from '../ownership.js';

export const JOB_OWNERS_STORE = 'slicer-job-owners';
/** Entries kept: many more than the service keeps jobs, so no live job loses its owner. */
export const KEEP_OWNERS = 200;
/** What the proxy routes accept as a job id (schemas.ts): anything else could not be cancelled anyway. */
const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

interface OwnerEntry {
  job_id: string;
  owner: JobOwner;
  at: string;
}

interface OwnersFile {
  jobs: OwnerEntry[];
}

function isOwner(value: unknown): value is JobOwner {
  const owner = value as Partial<JobOwner> | null;
  return (
    typeof owner === 'object' &&
    owner !== null &&
    (owner.kind === 'user' || owner.kind === 'api_key') &&
    typeof owner.id === 'string' &&
    typeof owner.name === 'string'
  );
}

function checkShape(data: unknown): string | null {
  const jobs = (data as OwnersFile | null)?.jobs;
  if (!Array.isArray(jobs)) return 'expected an object with a "jobs" list';
  const bad = jobs.findIndex((entry: Partial<OwnerEntry>) => typeof entry?.job_id !== 'string' || !isOwner(entry.owner));
  return bad < 0 ? null : `jobs[${bad}] lacks a job id or a valid owner`;
}

export class UpstreamJobOwners {
  private store: JsonStore<OwnersFile> | null = null;
  private readonly byJob = new Map<string, OwnerEntry>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async open(stores: JsonStores): Promise<void> {
    this.store = await stores.open<OwnersFile>(JOB_OWNERS_STORE, { jobs: [] }, checkShape);
    for (const entry of this.store.data.jobs) this.byJob.set(entry.job_id, entry);
  }

  /** Null for a job this dashboard did not start (or started so long ago it was forgotten). */
  ownerOf(jobId: string): JobOwner | null {
    return this.byJob.get(jobId)?.owner ?? null;
  }

  /**
   * Takes effect at once (a cancel right after the stream opened finds it); the write follows. A
   * write that fails is logged: the slice goes on, and the owner is known until a restart.
   */
  remember(jobId: string, owner: JobOwner): void {
    if (!JOB_ID.test(jobId)) return;
    this.byJob.delete(jobId);
    this.byJob.set(jobId, { job_id: jobId, owner, at: this.now().toISOString() });
    for (const oldest of this.byJob.keys()) {
      if (this.byJob.size <= KEEP_OWNERS) break;
      this.byJob.delete(oldest);
    }
    const store = this.store;
    if (store === null) return;
    store.data = { jobs: [...this.byJob.values()] };
    store.write().catch((err: unknown) => {
      this.log.error(`the owner of slicer service job ${jobId} could not be saved: ${err instanceof Error ? err.message : String(err)}`);
    });
  }
}
