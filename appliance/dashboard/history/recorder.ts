/**
 * Turns the printers' reports into records: opens one when a print starts, closes it when the
 * print ends, and ties it to whoever announced it. Work per printer runs one report at a time
 * (a record's write is on disk before the next report of that printer is looked at), so a quick
 * succession of reports cannot open a print twice.
 *
 * Announcements (`print.dispatched` from the queue, `print.starting` from slice-and-send) wait
 * per printer for the next print whose file matches (observation.ts `sameFile`); one that arrives
 * just after the print was seen (the printer reported first) still claims it. They wait in
 * `Announcements` (announcements.ts: on disk, so a restart in between loses none).
 */
import type { Logger } from '../../common/logger.js';
import type { SpoolLedger } from '../inventory/spool.js';
import { sameSlot, type FilamentSlot } from '../printers/filament-slot.js';
import type { PrintStarting } from '../printers/print-starting.js';
import { MemoryAnnouncements, type Announcement, type Announcements } from './announcements.js';
import type { PlannedFilament, PrintDispatched } from '../queue/print-dispatched.js';
import { bookFilament, filamentUsed } from './filament.js';
import { sameFile, type Observation } from './observation.js';
import { newRecordId, type EndState, type FilamentUsed, type HistoryRecord, type StartedBy } from './record.js';
import type { HistoryStore } from './store.js';
import type { ThumbnailStore } from './thumbnails.js';

/** The printers as history needs them: name and type, kept in the record as they were. */
export interface PrinterDirectory {
  describe(printerId: string): { name: string; type: string } | null;
}

/** A print seen at most this long before its announcement is still claimed by it. */
export const LATE_CLAIM_MS = 60_000;
/** An open record's progress is written again each time it has moved on by this many points. */
export const PROGRESS_CHECKPOINT = 10;
/** A reason that arrives this soon after a failed print was closed is added to its record. */
const LATE_REASON_MS = 10_000;
/**
 * A printer whose progress tells the print's state (Marlin) and whose status shows no print while
 * a record is open gets this long for the progress with the end to arrive (the two are sent apart);
 * without it (the driver was replaced mid-print), the record is closed as interrupted.
 */
export const GONE_GRACE_MS = 3_000;

interface PrinterTrack {
  openId: string | null;
  /** What the open print's progress said last. */
  progress: number | null;
  extruded: number[] | null;
  /** The driver reports the print's state in its progress (Marlin): statuses only fill in reasons. */
  statefulProgress: boolean;
  /** The file of an open record an admin deleted: the rest of that print is not recorded again. */
  forgotten: string | null;
  /** The last record closed as failed or interrupted without a reason, and when. */
  awaitingReason: { id: string; atMs: number } | null;
  lastError: string | null;
}

export interface RecorderOptions {
  store: HistoryStore;
  thumbnails: ThumbnailStore;
  printers: PrinterDirectory;
  ledger: SpoolLedger | null;
  /** Called with each closed record, once it is on disk (the feature publishes `history.added`). */
  closed(record: HistoryRecord): void;
  log: Logger;
  now?: () => Date;
  /** GONE_GRACE_MS unless a test shortens it. */
  goneGraceMs?: number;
  /** Where announcements wait for their print (history.ts: on disk); in memory when absent. */
  announcements?: Announcements;
}

const plannedToFilament = (p: PlannedFilament): FilamentUsed => ({
  slot: p.slot,
  spool_id: p.spool_id,
  material: p.material,
  color_hex: p.color_hex,
  grams: p.grams,
  length_mm: p.length_mm,
  cost: null,
});

/** The plan kept in an open record's `filament`, back as the queue announced it. */
const filamentToPlanned = (f: FilamentUsed, index: number): PlannedFilament => ({
  filament: index + 1,
  slot: f.slot,
  spool_id: f.spool_id,
  material: f.material ?? '',
  color_hex: f.color_hex,
  grams: f.grams,
  length_mm: f.length_mm,
});

export class PrintRecorder {
  private readonly tracks = new Map<string, PrinterTrack>();
  private readonly announcements: Announcements;
  private readonly chains = new Map<string, Promise<void>>();
  /** Announcement writes under way (idle() waits for them). */
  private readonly writes = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly now: () => Date;

  constructor(private readonly options: RecorderOptions) {
    this.now = options.now ?? (() => new Date());
    this.announcements = options.announcements ?? new MemoryAnnouncements(() => this.now().getTime());
  }

  /** Takes over the records left open by the last run, and books filament a crash left unbooked. */
  async resume(): Promise<void> {
    const { store } = this.options;
    for (const record of store.open()) {
      if (this.options.printers.describe(record.printer_id) === null) {
        await this.close(record, 'interrupted', 'the printer was removed from the dashboard');
        continue;
      }
      this.track(record.printer_id).openId = record.id;
    }
    for (const record of store.all()) if (record.state !== 'printing' && !record.filament_booked) await this.book(record);
  }

  /** Drops pending checks and waits for the work in hand. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.idle();
  }

  /** Resolves once every report handed in so far is handled (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const pending = [...this.chains.values(), ...this.writes];
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  announceDispatch(event: PrintDispatched): void {
    this.announce(event.printer_id, { kind: 'queue', event, atMs: this.now().getTime() }, event.file);
  }

  announceStart(event: PrintStarting): void {
    const atMs = this.now().getTime();
    const pending = this.announcements.get(event.printer_id);
    // The queue starts its prints through the same path: its announcement says more, and stays.
    if (pending?.kind === 'queue' && sameFile(pending.event.file, event.file)) return;
    this.announce(event.printer_id, { kind: 'user', event, atMs }, event.file);
  }

  /** A report about a printer's print (see observation.ts); `fromProgress` marks a driver that reports print states. */
  observe(printerId: string, observation: Observation, fromProgress: boolean): void {
    this.serialise(printerId, () => this.handle(printerId, observation, fromProgress));
  }

  /** A status's reason while the printer is in error, for a record closed before it arrived. */
  noteError(printerId: string, error: string | null): void {
    const track = this.track(printerId);
    track.lastError = error;
    const waiting = track.awaitingReason;
    if (error === null || waiting === null) return;
    track.awaitingReason = null;
    if (this.now().getTime() - waiting.atMs > LATE_REASON_MS) return;
    this.serialise(printerId, async () => {
      const record = this.options.store.get(waiting.id);
      if (record && record.error === null) await this.options.store.put({ ...record, error });
    });
  }

  /** An admin deleted a record: an open one's print is not recorded again. */
  forget(record: HistoryRecord): void {
    const track = this.track(record.printer_id);
    if (track.openId === record.id) {
      track.openId = null;
      track.forgotten = record.file;
    }
  }

  private track(printerId: string): PrinterTrack {
    let track = this.tracks.get(printerId);
    if (!track) {
      track = { openId: null, progress: null, extruded: null, statefulProgress: false, forgotten: null, awaitingReason: null, lastError: null };
      this.tracks.set(printerId, track);
    }
    return track;
  }

  /** An announcement write: logged when it fails (the announcement still waits in memory). */
  private saving(write: Promise<void>): void {
    const tracked = write.catch((err: unknown) => this.options.log.error(`announcement not saved: ${String(err)}`));
    this.writes.add(tracked);
    void tracked.then(() => this.writes.delete(tracked));
  }

  /**
   * Runs `work` in the printer's turn, after the reports received so far: a write from outside
   * the recorder (an outside monitor's note) cannot interleave with the recorder's own writes of
   * that printer's record. Resolves with what `work` gives; rejects with what it throws.
   */
  inTurn<T>(printerId: string, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.serialise(printerId, () => work().then(resolve, reject));
    });
  }

  private serialise(printerId: string, work: () => Promise<void>): void {
    const previous = this.chains.get(printerId) ?? Promise.resolve();
    const next = previous.then(work).catch((err: unknown) => {
      this.options.log.error(`printer ${printerId}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    });
    this.chains.set(printerId, next);
    void next.then(() => {
      if (this.chains.get(printerId) === next) this.chains.delete(printerId);
    });
  }

  private announce(printerId: string, announcement: Announcement, file: string): void {
    this.saving(this.announcements.set(printerId, announcement));
    // The printer may have reported the print before the announcement reached us.
    this.serialise(printerId, async () => {
      const track = this.track(printerId);
      const record = track.openId === null ? null : this.options.store.get(track.openId);
      if (record === null) return;
      if (record.started_by.kind !== 'printer' || !sameFile(record.file, file)) return;
      if (this.now().getTime() - Date.parse(record.started_at) > LATE_CLAIM_MS) return;
      if (this.announcements.get(printerId) !== announcement) return;
      await this.options.store.put(await this.attributed(record, announcement));
      await this.announcements.take(printerId, announcement);
    });
  }

  private async handle(printerId: string, obs: Observation, fromProgress: boolean): Promise<void> {
    const track = this.track(printerId);
    if (fromProgress) track.statefulProgress = true;
    else if (track.statefulProgress) {
      // Marlin's statuses repeat its progress's story a beat earlier or later; its progress tells it exactly.
      if (obs.phase === 'gone' && track.openId !== null) this.closeUnlessEnded(printerId, track.openId);
      return;
    }
    if (track.forgotten !== null) {
      if (obs.phase === 'active' && sameFile(obs.file, track.forgotten)) return;
      track.forgotten = null;
    }
    const open = track.openId === null ? null : this.options.store.get(track.openId);
    if (open && obs.phase !== 'gone' && sameFile(open.file, obs.file)) {
      if (obs.progress !== null) track.progress = obs.progress;
      if (obs.extruded_mm !== null) track.extruded = obs.extruded_mm;
      if (obs.phase !== 'active') await this.finish(open, obs.phase, obs.error);
      else if (obs.progress !== null && obs.progress - open.progress >= PROGRESS_CHECKPOINT) {
        // So that a print interrupted by a restart of the box says how far it got.
        await this.options.store.put({ ...open, progress: obs.progress });
      }
      return;
    }
    if (open) {
      // The printer moved on without our seeing the end (the box was down, or reports were lost).
      await this.finish(open, 'interrupted', `the printer reported ${obs.phase === 'gone' ? 'no print' : `another print (${obs.file})`} instead`);
    }
    if (obs.phase === 'active') await this.begin(printerId, obs);
  }

  private closeUnlessEnded(printerId: string, id: string): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.serialise(printerId, async () => {
        const track = this.track(printerId);
        const open = track.openId === id ? this.options.store.get(id) : null;
        if (open) await this.finish(open, 'interrupted', 'the printer reported no print');
      });
    }, this.options.goneGraceMs ?? GONE_GRACE_MS);
    this.timers.add(timer);
  }

  private async begin(printerId: string, obs: Observation): Promise<void> {
    const track = this.track(printerId);
    const now = this.now();
    const printer = this.options.printers.describe(printerId);
    const startedAt = obs.elapsed_s !== null && obs.elapsed_s > 0 ? new Date(now.getTime() - obs.elapsed_s * 1000) : now;
    let record: HistoryRecord = {
      id: newRecordId(now),
      printer_id: printerId,
      printer_name: printer?.name ?? printerId,
      printer_type: printer?.type ?? 'unknown',
      file: obs.file,
      started_by: { kind: 'printer', user: null, job_id: null, copy: null },
      started_at: startedAt.toISOString(),
      ended_at: null,
      duration_s: null,
      state: 'printing',
      error: null,
      progress: obs.progress ?? 0,
      filament: [],
      cost: null,
      thumbnail: null,
      estimate_s: null,
      filament_booked: false,
    };
    const waiting = this.announcements.get(printerId);
    const claimed = waiting && sameFile(waiting.event.file, obs.file) ? waiting : null;
    if (claimed) record = await this.attributed(record, claimed);
    await this.options.store.put(record);
    // Dropped only once the record that took it is on disk: a crash in between loses neither.
    if (claimed) await this.announcements.take(printerId, claimed);
    track.openId = record.id;
    track.progress = obs.progress;
    track.extruded = obs.extruded_mm;
    track.awaitingReason = null;
  }

  /** The record with what its announcement says: who, the job, the plan, the estimate, the picture. */
  private async attributed(record: HistoryRecord, announcement: Announcement): Promise<HistoryRecord> {
    if (announcement.kind === 'user') {
      const s = announcement.event;
      return {
        ...record,
        started_by: { kind: 'user', user: s.user, job_id: null, copy: null },
        estimate_s: s.estimate_s,
        filament: s.filaments.map(plannedToFilament),
      };
    }
    const d = announcement.event;
    const startedBy: StartedBy = { kind: 'queue', user: d.user, job_id: d.job_id, copy: d.copy };
    const thumbnail = d.thumbnail_path === null ? null : await this.options.thumbnails.keep(record.id, d.thumbnail_path);
    return { ...record, file: d.file, started_by: startedBy, estimate_s: d.estimate_s, filament: d.filaments.map(plannedToFilament), thumbnail };
  }

  private async finish(open: HistoryRecord, state: EndState, error: string | null): Promise<void> {
    const track = this.track(open.printer_id);
    const reason = state === 'failed' || state === 'interrupted' ? (error ?? track.lastError) : null;
    await this.close(open, state, reason, track.progress, track.extruded);
    track.openId = null;
    track.progress = null;
    track.extruded = null;
    track.lastError = null;
    track.awaitingReason = reason === null && state !== 'finished' && state !== 'cancelled' ? { id: open.id, atMs: this.now().getTime() } : null;
  }

  private async close(
    open: HistoryRecord,
    state: EndState,
    error: string | null,
    progress: number | null = null,
    extruded: number[] | null = null,
  ): Promise<void> {
    const ended = this.now();
    const endProgress = state === 'finished' ? 100 : (progress ?? open.progress);
    const ledger = this.options.ledger;
    const loaded = ledger?.loadedOn(open.printer_id) ?? [];
    const spoolFor = (slot: FilamentSlot, planned: PlannedFilament | null) => {
      if (ledger === null) return null;
      if (planned?.spool_id != null) return ledger.get(planned.spool_id);
      return loaded.find((s) => s.slot !== null && sameSlot(s.slot, slot)) ?? null;
    };
    const filament = filamentUsed({ extrudedMm: extruded, planned: open.filament.map(filamentToPlanned), state, progress: endProgress, spoolFor });
    const costs = filament.map((f) => f.cost).filter((c): c is number => c !== null);
    const record: HistoryRecord = {
      ...open,
      state,
      ended_at: ended.toISOString(),
      duration_s: Math.max(0, Math.round((ended.getTime() - Date.parse(open.started_at)) / 1000)),
      error,
      progress: endProgress,
      filament,
      cost: costs.length === 0 ? null : Math.round(costs.reduce((a, b) => a + b, 0) * 10_000) / 10_000,
      filament_booked: filament.every((f) => f.spool_id === null),
    };
    await this.options.store.put(record);
    const booked = record.filament_booked ? record : await this.book(record);
    this.options.closed(booked);
  }

  /** Takes the record's filament off its spools; the record says so once the ledger answered for all. */
  private async book(record: HistoryRecord): Promise<HistoryRecord> {
    const ledger = this.options.ledger;
    if (ledger === null) return record;
    try {
      await bookFilament(ledger, record.id, record.filament);
    } catch (err) {
      this.options.log.warn(`filament of print ${record.id} not taken off its spools yet (retried at the next start): ${String(err)}`);
      return record;
    }
    const booked = { ...record, filament_booked: true };
    await this.options.store.put(booked);
    return booked;
  }
}
