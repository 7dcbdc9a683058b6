/**
 * The jobs in `queue.json` (one atomic file: every change is on disk before it is announced or
 * acted on), kept in queue order: a job's position is its place in that list, from 1. Dispatch
 * order is priority (higher first), then position.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore, JsonStores } from '../../common/json-store.js';
import type { QueueJob } from './job.js';
import { COPY_STATES } from './states.js';

interface QueueFile {
  jobs: QueueJob[];
}

function jobProblem(job: unknown): string | null {
  const j = job as Partial<QueueJob> | null;
  if (typeof j?.id !== 'string' || typeof j.name !== 'string' || !Array.isArray(j.copies)) return 'a job lacks its id, name or copies';
  if (!j.copies.every((c) => COPY_STATES.includes(c?.state))) return `job ${j.id} has a copy in an unknown state`;
  if (typeof j.file?.path !== 'string' || typeof j.requirements !== 'object' || j.requirements === null)
    return `job ${j.id} lacks its file or requirements`;
  return null;
}

function checkShape(data: unknown): string | null {
  const jobs = (data as Partial<QueueFile> | null)?.jobs;
  if (!Array.isArray(jobs)) return 'expected { jobs: [...] }';
  for (const job of jobs) {
    const problem = jobProblem(job);
    if (problem !== null) return problem;
  }
  return null;
}

/** A file with one broken job keeps the others. */
function salvage(data: unknown): { data: QueueFile; kept: string } | null {
  const jobs = (data as Partial<QueueFile> | null)?.jobs;
  if (!Array.isArray(jobs)) return null;
  const good = jobs.filter((job) => jobProblem(job) === null) as QueueJob[];
  return good.length > 0 ? { data: { jobs: good }, kept: `${good.length} of ${jobs.length} jobs` } : null;
}

export class JobStore {
  /** The write of queue.json on its way to disk, if any. */
  private writing: Promise<void> | null = null;
  /** The one write that every save asked for while another was on its way shares. */
  private queued: Promise<void> | null = null;

  private constructor(private readonly store: JsonStore<QueueFile>) {}

  static async open(stores: JsonStores): Promise<JobStore> {
    return new JobStore(await stores.open<QueueFile>('queue', { jobs: [] }, checkShape, salvage));
  }

  /** In queue order. */
  list(): readonly QueueJob[] {
    return this.store.data.jobs;
  }

  get(id: string): QueueJob | null {
    return this.store.data.jobs.find((job) => job.id === id) ?? null;
  }

  require(id: string): QueueJob {
    const job = this.get(id);
    if (!job) throw new AppError(ErrorCode.notFound, 404, `no queue job ${id}`);
    return job;
  }

  position(id: string): number {
    return this.store.data.jobs.findIndex((job) => job.id === id) + 1;
  }

  /** Dispatch order: priority, then position. */
  byPriority(): QueueJob[] {
    return this.store.data.jobs
      .map((job, index) => ({ job, index }))
      .sort((a, b) => b.job.priority - a.job.priority || a.index - b.index)
      .map(({ job }) => job);
  }

  async add(job: QueueJob, position: number | null): Promise<void> {
    const jobs = this.store.data.jobs;
    jobs.splice(position === null ? jobs.length : Math.min(position - 1, jobs.length), 0, job);
    await this.save();
  }

  /** Moves a job to `position` (1-based; past the end means last); the caller saves. */
  move(id: string, position: number): void {
    const jobs = this.store.data.jobs;
    const from = jobs.findIndex((job) => job.id === id);
    const [job] = jobs.splice(from, 1);
    jobs.splice(Math.min(position - 1, jobs.length), 0, job);
  }

  async remove(id: string): Promise<void> {
    this.store.data.jobs = this.store.data.jobs.filter((job) => job.id !== id);
    await this.save();
  }

  /**
   * Writes the jobs as they are now (mutate them in place, then save); resolves once a write that
   * began after the call is on disk. While one write is on its way, the saves asked for meanwhile
   * share the next one, serialised when it begins: at 5,000 jobs queue.json is ~7 MB, whose
   * serialisation holds the event loop 20–120 ms and whose write and fsync take 80–190 ms, so a
   * burst of changes (a round's sends ending, prints ending) costs two writes, not one each.
   */
  save(): Promise<void> {
    if (this.writing === null) return this.begin();
    this.queued ??= this.writing
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.begin();
      });
    return this.queued;
  }

  private begin(): Promise<void> {
    const run = this.store.write();
    this.writing = run;
    void run
      .catch(() => undefined)
      .then(() => {
        if (this.writing === run) this.writing = null;
      });
    return run;
  }
}
