/**
 * The print queue: the jobs and their copies (job-store.ts), the plates (plates.ts) and the
 * dispatcher (dispatcher.ts), with what the routes and other features call. Every change is on
 * disk before it is announced on the bus (`queue.update`, `printer.plate`, `print.dispatched`).
 *
 * Rounds run when something may let a copy go: a job added or changed, a plate confirmed clear,
 * a printer becoming ready or reporting its AMS, a send ending, POST /api/queue/dispatch, and
 * every `queue.round_interval_s` as a safety net. A printer seen printing (whoever started it)
 * has its plate marked occupied; a print that ends leaves it so until someone confirms it clear.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DashboardContext } from '../feature.js';
import { AppError, ErrorCode } from '../../common/errors.js';
import { normalizeName } from '../../common/names.js';
import type { SpoolDirectory } from '../inventory/spool.js';
import type { Printers } from '../printers/feature.js';
import type { PrinterStatus } from '../printers/status.js';
import type { SlicingBackend } from '../slicing/backend.js';
import type { JobOwner } from '../slicing/ownership.js';
import { Dispatcher, type Claim } from './dispatcher.js';
import type { QueueJob, SliceSpec } from './job.js';
import { createJob, normaliseRequirements, removeJobFiles, sweepFiles, type ParsedForm, type RequirementsInput } from './job-input.js';
import { JobStore } from './job-store.js';
import { QueuePause, type PauseView } from './pause.js';
import { Plates, type PlateChange, type PlateView } from './plates.js';
import { applyCommand, canMoveCopy, checkDeletable, commandFor, hasActiveCopy, jobState, moveCopy, type JobState } from './states.js';
import { newCopy } from './job.js';
import type { MultipartForm } from '../../common/multipart.js';

export type QueueContext = Pick<DashboardContext, 'dataDir' | 'bus' | 'log' | 'stores' | 'settings'>;

/** A job added, changed or removed; or the queue-wide pause changed (a reason added or ended). */
export type QueueUpdate = { action: 'added' | 'changed' | 'removed'; job: JobView } | { action: 'paused' | 'resumed'; pause: PauseView };

export interface JobView extends Omit<QueueJob, 'held' | 'cancelled' | 'plan' | 'file' | 'slice'> {
  slice: Omit<SliceSpec, 'owner'> | null;
  state: JobState;
  position: number;
  file: { name: string; format: QueueJob['file']['format']; size_bytes: number };
  copies_done: number;
  copies_failed: number;
  plan: { estimate_s: number | null; amounts: QueueJob['plan']['amounts']; has_thumbnail: boolean };
}

export interface JobPatch {
  name?: string;
  copies?: number;
  priority?: number;
  position?: number;
  requirements?: RequirementsInput;
  state?: 'queued' | 'held' | 'cancelled';
}

/** How a print of a queue job ended, as history reports it (`history.added`). */
export interface PrintEnd {
  printer_id: string;
  job_id: string;
  copy: number;
  state: 'finished' | 'cancelled' | 'failed' | 'interrupted';
  error?: string | null;
}

const PRINTING_STATES = new Set<PrinterStatus['state']>(['preparing', 'printing', 'paused']);
const READY_STATES = new Set<PrinterStatus['state']>(['idle', 'finished', 'error']);

export class QueueService {
  private opened: { jobs: JobStore; plates: Plates; pause: QueuePause; dispatcher: Dispatcher } | null = null;
  private readonly unsubscribe: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Each printer's last state and connection, so that a round runs on a change, not on every report. */
  private readonly lastSeen = new Map<string, string>();

  constructor(
    private readonly ctx: QueueContext,
    private readonly printers: Printers,
    private readonly spools: SpoolDirectory | null,
    private readonly slicers: readonly SlicingBackend[],
  ) {}

  async start(): Promise<void> {
    const jobs = await JobStore.open(this.ctx.stores);
    const plates = await Plates.open(this.ctx.stores);
    const pause = await QueuePause.open(this.ctx.stores);
    const log = this.ctx.log.child('queue');
    const swept = await sweepFiles(this.ctx.dataDir, new Set(jobs.list().map((job) => job.id)));
    if (swept.length > 0) log.info(`removed ${swept.length} leftover file(s) of unfinished uploads and slices: ${swept.join(', ')}`);
    const dispatcher = new Dispatcher({
      printers: this.printers,
      slicers: this.slicers,
      spools: this.spools,
      jobs,
      plates,
      dataDir: this.ctx.dataDir,
      log,
      settings: () => ({ attempts: this.ctx.settings.current.queue.dispatch_attempts, retryDelayMs: this.ctx.settings.current.queue.retry_delay_ms }),
      pausedReason: () => pause.waitingReason(),
      changed: (changed) => this.changed(changed),
      reasonsChanged: (jobs) => {
        for (const job of jobs) this.announce('changed', job);
      },
      occupy: (printerId, by) => this.setPlate(printerId, 'occupied', by),
      announce: (dispatched) => this.ctx.bus.emit('print.dispatched', dispatched),
    });
    this.opened = { jobs, plates, pause, dispatcher };
    dispatcher.recover();
    this.unsubscribe.push(
      this.ctx.bus.on('printer.status', (status) => this.onStatus(status)),
      this.ctx.bus.on('ams.update', () => void dispatcher.round()),
    );
    this.schedule();
    void dispatcher.round();
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.opened?.dispatcher.stop();
  }

  list(): JobView[] {
    return this.state.jobs.list().map((job) => this.view(job));
  }

  get(id: string): JobView {
    return this.view(this.state.jobs.require(id));
  }

  async add(form: MultipartForm, parsed: ParsedForm, owner: JobOwner): Promise<JobView> {
    this.checkPrinters(parsed.requirements?.printer_ids ?? []);
    const job = await createJob(form, parsed, this.ctx.dataDir, owner);
    // Said at once, so the answer already tells why the job will not start; the round says it again.
    if (!job.held) job.waiting_reason = this.state.pause.waitingReason();
    await this.state.jobs.add(job, parsed.position);
    this.announce('added', job);
    void this.state.dispatcher.round();
    return this.view(job);
  }

  /** Applies a PUT: see README.md for what may change in which state. */
  async update(id: string, patch: JobPatch): Promise<JobView> {
    const job = this.state.jobs.require(id);
    const state = jobState(job);
    if (state === 'done' || state === 'cancelled') {
      if (patch.position === undefined || Object.keys(patch).length > 1)
        throw new AppError(ErrorCode.conflict, 409, `a ${state} job can only be moved`, { state });
    }
    if (patch.requirements !== undefined) {
      if (hasActiveCopy(job)) throw new AppError(ErrorCode.conflict, 409, `the job is ${state}: its requirements cannot change now`, { state });
      this.checkPrinters(patch.requirements.printer_ids ?? []);
    }
    const command = patch.state === undefined ? null : commandFor(job, patch.state);
    const copies = patch.copies === undefined ? null : this.checkCopies(job, patch.copies);
    // Every check is done: from here on the job changes.
    if (command !== null) applyCommand(job, command);
    if (patch.name !== undefined) job.name = normalizeName(patch.name);
    if (patch.priority !== undefined) job.priority = patch.priority;
    if (patch.requirements !== undefined) {
      job.requirements = normaliseRequirements(patch.requirements, job.requirements);
      if (patch.requirements.filaments !== undefined) job.filaments_from = 'user';
    }
    if (copies !== null) this.resize(job, copies);
    if (patch.position !== undefined) this.state.jobs.move(job.id, patch.position);
    await this.changed([job]);
    void this.state.dispatcher.round();
    return this.view(job);
  }

  /** The job's plate picture; 404 when its file has none. */
  async thumbnail(id: string): Promise<Buffer> {
    const job = this.state.jobs.require(id);
    if (job.plan.thumbnail === null) throw new AppError(ErrorCode.notFound, 404, `job ${id} has no plate picture`);
    return readFile(path.join(this.ctx.dataDir, job.plan.thumbnail));
  }

  async remove(id: string): Promise<void> {
    const job = this.state.jobs.require(id);
    checkDeletable(job);
    const view = this.view(job);
    await this.state.jobs.remove(id);
    await removeJobFiles(job, this.ctx.dataDir);
    this.ctx.bus.emit('queue.update', { action: 'removed', job: view });
  }

  pauseView(): PauseView {
    return this.state.pause.view();
  }

  /** Pauses the whole queue for a reason (others may pause it as well): no copy goes out until every reason is resumed. */
  async pause(reason: string, by: string): Promise<PauseView> {
    if (await this.state.pause.pause(reason, by)) this.ctx.bus.emit('queue.update', { action: 'paused', pause: this.pauseView() });
    void this.state.dispatcher.round();
    return this.pauseView();
  }

  /** Ends the pause of this reason (null: of every reason); a round follows, which starts what waited if nothing else pauses. */
  async resume(reason: string | null): Promise<PauseView> {
    if (await this.state.pause.resume(reason)) this.ctx.bus.emit('queue.update', { action: 'resumed', pause: this.pauseView() });
    void this.state.dispatcher.round();
    return this.pauseView();
  }

  dispatchNow(): Promise<Claim[]> {
    return this.state.dispatcher.round();
  }

  plate(printerId: string): PlateView {
    this.printers.fleet.view(printerId);
    return this.state.plates.view(printerId);
  }

  plates(): PlateView[] {
    return this.printers.fleet.list().map((p) => this.state.plates.view(p.id));
  }

  /** Someone confirmed the plate clear: 409 while the printer prints or a dispatch to it is under way. */
  async plateCleared(printerId: string, by: string): Promise<PlateView> {
    const printer = this.printers.fleet.view(printerId);
    if (PRINTING_STATES.has(printer.state)) {
      throw new AppError(ErrorCode.conflict, 409, `printer "${printer.name}" is ${printer.state}: its plate cannot be clear`, {
        state: printer.state,
      });
    }
    if (this.state.jobs.list().some((job) => job.copies.some((c) => c.state === 'dispatching' && c.printer_id === printerId))) {
      throw new AppError(ErrorCode.conflict, 409, `a print is being sent to printer "${printer.name}"`);
    }
    await this.setPlate(printerId, 'clear', by);
    void this.state.dispatcher.round();
    return this.state.plates.view(printerId);
  }

  /** A print of a queue job ended (history's `history.added`): the copy is done, or failed and the job stops. */
  async printEnded(end: PrintEnd): Promise<void> {
    const job = this.state.jobs.get(end.job_id);
    const copy = job?.copies.find((c) => c.copy === end.copy);
    if (!job || !copy || copy.printer_id !== end.printer_id) return;
    const event = end.state === 'finished' ? 'finished' : 'print_failed';
    // A restart may have left the copy `dispatching` though the print went through.
    if (copy.state === 'dispatching' && canMoveCopy(copy, 'started')) moveCopy(copy, 'started');
    if (!canMoveCopy(copy, event)) return;
    moveCopy(copy, event);
    copy.ended_at = new Date().toISOString();
    if (event === 'print_failed') {
      copy.error = end.error ?? `the print was ${end.state}`;
      job.error = `copy ${copy.copy} ${end.state} on printer ${end.printer_id}${end.error ? `: ${end.error}` : ''}`;
    }
    // The plate has been occupied since the print began (onStatus); history closes the record a
    // moment after the printer stops, and a person may have confirmed the plate clear meanwhile.
    await this.changed([job]);
    void this.state.dispatcher.round();
  }

  info(): Record<string, unknown> {
    const jobs = this.opened?.jobs.list() ?? [];
    const counts: Partial<Record<JobState, number>> = {};
    for (const job of jobs) counts[jobState(job)] = (counts[jobState(job)] ?? 0) + 1;
    return { jobs: jobs.length, by_state: counts, paused: this.opened?.pause.view().paused ?? false };
  }

  private get state(): NonNullable<QueueService['opened']> {
    if (!this.opened) throw new AppError(ErrorCode.unavailable, 503, 'the queue is not open yet');
    return this.opened;
  }

  /** The safety-net round, every `queue.round_interval_s` as the setting is now. */
  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.opened?.dispatcher.round();
      this.schedule();
    }, this.ctx.settings.current.queue.round_interval_s * 1000);
    this.timer.unref();
  }

  private onStatus(status: PrinterStatus): void {
    if (!this.opened) return;
    const seen = `${status.online}/${status.state}`;
    if (this.lastSeen.get(status.printer_id) === seen) return;
    this.lastSeen.set(status.printer_id, seen);
    if (status.online && PRINTING_STATES.has(status.state)) {
      void this.setPlate(status.printer_id, 'occupied', this.opened.dispatcher.isBusy(status.printer_id) ? 'queue' : 'printer');
    }
    if (READY_STATES.has(status.state) || this.opened.dispatcher.isRecovering(status.printer_id)) void this.opened.dispatcher.round();
  }

  private async setPlate(printerId: string, state: PlateChange['state'], by: string): Promise<void> {
    const change = await this.state.plates.set(printerId, state, by);
    if (change) this.ctx.bus.emit('printer.plate', change);
  }

  private checkPrinters(ids: readonly string[]): void {
    const known = new Set(this.printers.fleet.list().map((p) => p.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new AppError(ErrorCode.validation, 400, `body/requirements/printer_ids names printers that do not exist: ${unknown.join(', ')}`, [
        { path: 'body/requirements/printer_ids', message: `names printers that do not exist: ${unknown.join(', ')}` },
      ]);
    }
  }

  /** Copies may not go below those already dispatched, printing, done or failed. */
  private checkCopies(job: QueueJob, wanted: number): number {
    const started = job.copies.filter((c) => c.state !== 'pending' && c.state !== 'cancelled').length;
    if (wanted < started) {
      throw new AppError(ErrorCode.conflict, 409, `${started} copies are already dispatched, printed or failed: copies cannot go below that`, {
        started,
      });
    }
    return wanted;
  }

  private resize(job: QueueJob, wanted: number): void {
    const kept = job.copies.filter((c) => c.state !== 'pending' && c.state !== 'cancelled');
    const pending = job.copies.filter((c) => c.state === 'pending').slice(0, wanted - kept.length);
    const copies = [...kept, ...pending];
    let next = Math.max(0, ...job.copies.map((c) => c.copy)) + 1;
    while (copies.length < wanted) copies.push(newCopy(next++));
    job.copies = copies.sort((a, b) => a.copy - b.copy);
  }

  private async changed(jobs: readonly QueueJob[]): Promise<void> {
    const now = new Date().toISOString();
    for (const job of jobs) job.updated_at = now;
    await this.state.jobs.save();
    for (const job of new Set(jobs)) this.announce('changed', job);
  }

  private announce(action: 'added' | 'changed', job: QueueJob): void {
    this.ctx.bus.emit('queue.update', { action, job: this.view(job) });
  }

  private view(job: QueueJob): JobView {
    const { held: _held, cancelled: _cancelled, plan, file, slice, ...rest } = job;
    return {
      ...rest,
      slice:
        slice === null
          ? null
          : {
              printer_profile_id: slice.printer_profile_id,
              filament_ids: slice.filament_ids,
              process_id: slice.process_id,
              overrides: slice.overrides,
            },
      state: jobState(job),
      position: this.state.jobs.position(job.id),
      file: { name: file.name, format: file.format, size_bytes: file.size_bytes },
      copies_done: job.copies.filter((c) => c.state === 'done').length,
      copies_failed: job.copies.filter((c) => c.state === 'failed').length,
      plan: { estimate_s: plan.estimate_s, amounts: plan.amounts, has_thumbnail: plan.thumbnail !== null },
    };
  }
}
