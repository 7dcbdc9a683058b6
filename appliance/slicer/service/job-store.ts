/**
 * Every job the service knows, and their folders under the jobs dir:
 *
 *   <jobs-dir>/.uploads/          uploads being received (emptied at start)
 *   <jobs-dir>/<id>/              model (until sliced), G-code, preview.png, job.json
 *
 * A finished job's record is written to its folder, so finished jobs and their files survive a
 * restart; folders of jobs that never finished are removed at start. Finished jobs are kept up
 * to a count and an age, then removed with their files. The folders are the service user's only
 * (0700; the files in them 0600): uploaded models and their prints are the users' work.
 */
import { chmod, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { requireFreeSpace } from '../../common/disk-space.js';
import { writeFileAtomic } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { FINISHED_STATES, Job, type JobRecord } from './job.js';

export interface RetentionPolicy {
  keepJobs: number;
  keepMs: number;
}

const JOB_ID = /^[0-9a-f]{16}$/;
const RECORD_FILE = 'job.json';
export const DIR_MODE = 0o700;
export const PREVIEW_FILE = 'preview.png';
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function isJobId(id: string): boolean {
  return JOB_ID.test(id);
}

function isRecord(value: unknown): value is JobRecord {
  const r = value as Partial<JobRecord> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.id === 'string' &&
    JOB_ID.test(r.id) &&
    typeof r.state === 'string' &&
    FINISHED_STATES.includes(r.state) &&
    typeof r.finished_at === 'string'
  );
}

export class JobStore {
  private readonly jobs = new Map<string, Job>();
  private timer: NodeJS.Timeout | null = null;

  /** `minFreeBytes`: disk space new jobs must leave free (0: no check). */
  constructor(
    readonly root: string,
    private readonly policy: RetentionPolicy,
    private readonly log: Logger,
    private readonly minFreeBytes = 0,
  ) {}

  get uploadsDir(): string {
    return path.join(this.root, '.uploads');
  }

  jobDir(id: string): string {
    return path.join(this.root, id);
  }

  /** Creates the folders, restores finished jobs and removes what an earlier run left half done. */
  async open(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: DIR_MODE });
    // mkdir leaves the mode of a folder that exists alone (one made by an earlier version, say).
    await chmod(this.root, DIR_MODE);
    await rm(this.uploadsDir, { recursive: true, force: true });
    await mkdir(this.uploadsDir, { mode: DIR_MODE });
    for (const entry of await readdir(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory() || !JOB_ID.test(entry.name)) continue;
      const dir = this.jobDir(entry.name);
      const record = await this.readRecord(dir);
      if (record && record.id === entry.name) {
        await chmod(dir, DIR_MODE);
        this.jobs.set(record.id, Job.restore(dir, record));
      } else {
        await rm(dir, { recursive: true, force: true });
      }
    }
    if (this.jobs.size > 0) this.log.info(`restored ${this.jobs.size} finished job(s)`);
    await this.sweep();
  }

  private async readRecord(dir: string): Promise<JobRecord | null> {
    try {
      const parsed: unknown = JSON.parse(await readFile(path.join(dir, RECORD_FILE), 'utf8'));
      return isRecord(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  /** Refuses a new job with 507 when its upload of `incomingBytes` would leave too little disk free. */
  async requireRoom(incomingBytes: number): Promise<void> {
    await requireFreeSpace(this.root, this.minFreeBytes, 'a new job', incomingBytes);
  }

  add(job: Job): void {
    this.jobs.set(job.id, job);
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** All jobs, oldest first (insertion order, which is creation order). */
  all(): Job[] {
    return [...this.jobs.values()];
  }

  /**
   * Saves a finished job's record, drops its model upload, and applies the retention policy. The
   * job list is trimmed before the first await, so a client never sees more jobs than are kept.
   */
  async finished(job: Job): Promise<void> {
    const expired = this.expire(Date.now());
    await this.remove(expired);
    if (expired.includes(job)) return;
    try {
      if (job.work) await rm(job.work.modelPath, { force: true });
      await writeFileAtomic(path.join(job.dir, RECORD_FILE), JSON.stringify(job.toJSON()));
    } catch (err) {
      this.log.warn(`cannot save the record of job ${job.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Removes finished jobs beyond the count or older than the age limit. */
  async sweep(now = Date.now()): Promise<void> {
    await this.remove(this.expire(now));
  }

  /** Takes the expired jobs out of the list and plans the next sweep; their folders are left to `remove`. */
  private expire(now: number): Job[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const finished = this.all()
      .filter((j) => j.isFinished)
      .sort((a, b) => b.finishedAtMs - a.finishedAtMs);
    const expired = finished.filter((j, k) => k >= this.policy.keepJobs || now - j.finishedAtMs >= this.policy.keepMs);
    for (const job of expired) this.jobs.delete(job.id);
    const kept = finished.filter((j) => !expired.includes(j));
    if (kept.length > 0) {
      const nextExpiry = Math.min(...kept.map((j) => j.finishedAtMs + this.policy.keepMs));
      this.timer = setTimeout(() => void this.sweep(), Math.min(Math.max(nextExpiry - now, 0) + 10, MAX_TIMER_MS));
      this.timer.unref();
    }
    return expired;
  }

  private async remove(jobs: Job[]): Promise<void> {
    for (const job of jobs) {
      await rm(job.dir, { recursive: true, force: true });
      this.log.debug(`removed job ${job.id}`);
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
