/**
 * The dispatcher: rounds that hand pending copies to printers, one round at a time.
 *
 * A round takes the jobs in dispatch order (priority, then position) and gives each pending copy
 * the first printer that fits, has its filament, takes a job now and has a confirmed clear plate
 * (pick-printer.ts); a printer gets at most one copy per round and none while a send to it is in
 * flight. The claims (copy `dispatching` on its printer) are written to disk before anything is
 * uploaded, then each copy is sent in the background (send-copy.ts) and its outcome recorded:
 * `printing` and the plate occupied, or `failed` with the error. Jobs that get nothing keep the
 * reason on `waiting_reason`. While the queue is paused a round claims nothing: every job that would
 * go out waits with the pause's reason.
 *
 * Restart rule: a copy found `dispatching` when the queue starts was claimed by a dashboard that
 * died before it knew how the send ended. Its printer is kept out of rounds until its driver is
 * online again; then, if the printer reports printing (or preparing, or paused) that file, the
 * copy is `printing`, otherwise the claim is undone and the copy is pending again. A printer that
 * no longer exists, or was disabled, undoes the claim at once. So a copy is never printed twice by the queue, and
 * never lost.
 */
import type { Logger } from '../../common/logger.js';
import type { SpoolDirectory } from '../inventory/spool.js';
import type { Printers } from '../printers/feature.js';
import type { SlicingBackend } from '../slicing/backend.js';
import { printerFileName } from '../slicing/send-to-printer.js';
import { printedStem, type JobCopy, type QueueJob } from './job.js';
import { defaultFeeds, type FilamentMatch } from './matching.js';
import { pickPrinter } from './pick-printer.js';
import type { PrintDispatched } from './print-dispatched.js';
import type { Plates } from './plates.js';
import { snapshotPrinters } from './printer-snapshots.js';
import { printedName, sendCopy, type SendOutcome } from './send-copy.js';
import { isDispatchable, moveCopy } from './states.js';
import type { JobStore } from './job-store.js';

export interface DispatchSettings {
  attempts: number;
  retryDelayMs: number;
}

export interface DispatcherDeps {
  printers: Printers;
  /** The slicing backends a model job is sliced with, in order. */
  slicers: readonly SlicingBackend[];
  spools: SpoolDirectory | null;
  jobs: JobStore;
  plates: Plates;
  dataDir: string;
  log: Logger;
  settings(): DispatchSettings;
  /** The waiting reason while the queue is paused (pause.ts), null when it is not: then no copy goes out. */
  pausedReason(): string | null;
  /** Saves the jobs and announces them (`queue.update`). */
  changed(jobs: readonly QueueJob[]): Promise<void>;
  /** Announces jobs whose waiting reason alone changed, without saving them. */
  reasonsChanged(jobs: readonly QueueJob[]): void;
  /** Marks a printer's plate occupied (a print started on it). */
  occupy(printerId: string, by: string): Promise<void>;
  announce(dispatched: PrintDispatched): void;
}

export interface Claim {
  job_id: string;
  copy: number;
  printer_id: string;
}

interface PendingClaim {
  job: QueueJob;
  copy: JobCopy;
  printerId: string;
  match: FilamentMatch;
}

/** How long a stop waits for the sends in flight. */
const STOP_WAIT_MS = 10_000;

/** Printer states in which a recovered claim's file counts as started. */
const RUNNING_STATES = new Set(['preparing', 'printing', 'paused']);

export class Dispatcher {
  /** Printers with a send in flight or a claim from before the restart not yet resolved. */
  private readonly busy = new Set<string>();
  private readonly recovering = new Map<string, { job: QueueJob; copy: JobCopy }>();
  private readonly sends = new Set<Promise<void>>();
  private chain: Promise<unknown> = Promise.resolve();
  private queued: Promise<Claim[]> | null = null;
  private stopping = false;
  private readonly aborter = new AbortController();

  constructor(private readonly deps: DispatcherDeps) {}

  /** Takes over the claims a previous run left (see the restart rule above). */
  recover(): void {
    for (const job of this.deps.jobs.list()) {
      for (const copy of job.copies) {
        if (copy.state !== 'dispatching' || copy.printer_id === null) continue;
        this.recovering.set(copy.printer_id, { job, copy });
        this.busy.add(copy.printer_id);
      }
    }
    if (this.recovering.size > 0)
      this.deps.log.info(`${this.recovering.size} dispatch(es) were in flight at the last stop; waiting for their printers`);
  }

  /** A send to the printer is in flight, or a claim on it from before the restart is not resolved. */
  isBusy(printerId: string): boolean {
    return this.busy.has(printerId);
  }

  isRecovering(printerId: string): boolean {
    return this.recovering.has(printerId);
  }

  /** Runs a round after the one in progress (rounds asked for meanwhile share it); resolves with its claims. */
  round(): Promise<Claim[]> {
    if (this.stopping) return Promise.resolve([]);
    if (this.queued) return this.queued;
    const next = this.chain.then(() => {
      this.queued = null;
      return this.stopping ? [] : this.runRound();
    });
    this.queued = next;
    this.chain = next.catch((err: unknown) => this.deps.log.error(`dispatch round failed: ${err instanceof Error ? err.message : String(err)}`));
    return next;
  }

  /**
   * No new round or attempt starts; resolves once the sends in flight have ended, or after
   * STOP_WAIT_MS (an upload of a large file, a start the printer does not answer): a send cut
   * short leaves its claim, which the next start resolves by the restart rule.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.aborter.abort();
    await this.chain;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.sends]), new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private async runRound(): Promise<Claim[]> {
    await this.resolveRecovered();
    const printers = snapshotPrinters(this.deps.printers, this.deps.spools, this.deps.plates);
    const taken = new Set(this.busy);
    const claims: PendingClaim[] = [];
    const touched = new Set<QueueJob>();
    const reasoned = new Set<QueueJob>();
    const paused = this.deps.pausedReason();
    for (const job of this.deps.jobs.byPriority()) {
      let reason: string | null = null;
      if (paused !== null) {
        if (isDispatchable(job) && job.copies.some((copy) => copy.state === 'pending')) reason = paused;
      } else if (isDispatchable(job)) {
        for (const copy of job.copies) {
          if (copy.state !== 'pending') continue;
          const pick = pickPrinter(job, printers, taken);
          if ('reason' in pick) {
            reason = pick.reason;
            break;
          }
          const printerId = pick.printer.view.id;
          taken.add(printerId);
          moveCopy(copy, 'claim');
          Object.assign(copy, { printer_id: printerId, remote_name: printerFileName(job.file.name), error: null, dispatches: copy.dispatches + 1 });
          const match =
            job.requirements.filaments.length === 0
              ? { filaments: defaultFeeds(pick.printer.snapshot, job.plan.amounts.length), ams_mapping: null }
              : pick.match;
          claims.push({ job, copy, printerId, match });
          touched.add(job);
        }
      }
      if (job.waiting_reason !== reason) {
        job.waiting_reason = reason;
        reasoned.add(job);
      }
    }
    // The claims are on disk before any upload: a crash from here on is the restart rule's case.
    if (touched.size > 0) await this.deps.changed([...touched]);
    // A reason is worked out again by every round, after a restart too: it is announced, not saved.
    const onlyReasons = [...reasoned].filter((job) => !touched.has(job));
    if (onlyReasons.length > 0) this.deps.reasonsChanged(onlyReasons);
    for (const claim of claims) this.launch(claim);
    return claims.map(({ job, copy, printerId }) => ({ job_id: job.id, copy: copy.copy, printer_id: printerId }));
  }

  private launch(claim: PendingClaim): void {
    this.busy.add(claim.printerId);
    const { attempts, retryDelayMs } = this.deps.settings();
    const send: Promise<void> = sendCopy(claim.job, claim.copy, claim.printerId, claim.match, {
      printers: this.deps.printers,
      dataDir: this.deps.dataDir,
      log: this.deps.log,
      attempts,
      retryDelayMs,
      announce: (dispatched) => this.deps.announce(dispatched),
      stopped: () => this.stopping,
      signal: this.aborter.signal,
      slicers: this.deps.slicers,
      named: () => this.deps.changed([claim.job]),
    })
      .then((outcome) => this.record(claim, outcome))
      .catch((err: unknown) =>
        this.deps.log.error(`recording dispatch of job ${claim.job.id} failed: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        this.busy.delete(claim.printerId);
        this.sends.delete(send);
        void this.round();
      });
    this.sends.add(send);
  }

  private async record({ job, copy, printerId }: PendingClaim, outcome: SendOutcome): Promise<void> {
    // Stopping mid-send: the claim stays, and the next start resolves it by the restart rule.
    if (!outcome.started && this.stopping) return;
    const now = new Date().toISOString();
    if (copy.state !== 'dispatching') {
      // A short print ended, and history said so, before the printer answered the start.
      copy.started_at ??= now;
      await this.deps.changed([job]);
      return;
    }
    if (outcome.started) {
      moveCopy(copy, 'started');
      copy.started_at = now;
      await this.deps.occupy(printerId, 'queue');
    } else {
      moveCopy(copy, 'dispatch_failed');
      copy.error = outcome.error;
      copy.ended_at = now;
      job.error = `copy ${copy.copy} could not be sent to printer ${printerId}: ${outcome.error}`;
    }
    await this.deps.changed([job]);
  }

  /** Resolves recovered claims whose printer is online again or gone. */
  private async resolveRecovered(): Promise<void> {
    const resolved: QueueJob[] = [];
    for (const [printerId, { job, copy }] of this.recovering) {
      const view = this.deps.printers.fleet.find(printerId);
      // Wait for the printer to answer again, unless it was disabled (then it will not).
      if (view !== null && !view.online && view.enabled) continue;
      const file = view?.status.job?.file ?? null;
      const expected = copy.remote_name === null || view === null ? null : printedStem(printedName(view.type, copy.remote_name));
      if (view !== null && RUNNING_STATES.has(view.state) && file !== null && printedStem(file) === expected) {
        moveCopy(copy, 'started');
        copy.started_at = new Date().toISOString();
        await this.deps.occupy(printerId, 'queue');
        this.deps.log.info(`job ${job.id} copy ${copy.copy}: printer ${printerId} is printing it; the dispatch went through before the restart`);
      } else {
        moveCopy(copy, 'unclaim');
        Object.assign(copy, { printer_id: null, remote_name: null });
        this.deps.log.info(`job ${job.id} copy ${copy.copy}: printer ${printerId} is not printing it; queued again`);
      }
      this.recovering.delete(printerId);
      this.busy.delete(printerId);
      resolved.push(job);
    }
    if (resolved.length > 0) await this.deps.changed(resolved);
  }
}
