/**
 * The print history service: the store, the recorder fed from the event bus, the thumbnails.
 * services.ts builds it (no I/O); the history feature opens it at start, after the printers, and
 * stops it before them. Closed records are published as `history.added` (the queue follows it to
 * finish its jobs).
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { DashboardContext } from '../feature.js';
import type { SpoolLedger } from '../inventory/spool.js';
import { StoredAnnouncements } from './announcements.js';
import { fromProgress, fromStatus } from './observation.js';
import type { HistoryRecord, MonitorNote } from './record.js';
import { PrintRecorder, type PrinterDirectory } from './recorder.js';
import { HistoryStore } from './store.js';
import { ThumbnailStore } from './thumbnails.js';

export interface HistoryOptions {
  /** Takes used filament off the spools; without one (no inventory) nothing is booked. */
  ledger: SpoolLedger | null;
  printers: PrinterDirectory;
  /** Compaction thresholds of the log (tests make them small). */
  compactRatio?: number;
  compactMinBytes?: number;
}

export class PrintHistory {
  private opened: { store: HistoryStore; recorder: PrintRecorder } | null = null;
  private unsubscribe: (() => void)[] = [];
  readonly thumbnails: ThumbnailStore;

  constructor(
    private readonly ctx: Pick<DashboardContext, 'bus' | 'dataDir' | 'log' | 'stores'>,
    private readonly options: HistoryOptions,
  ) {
    this.thumbnails = new ThumbnailStore(ctx.dataDir, ctx.log.child('history'));
  }

  async open(): Promise<void> {
    const log = this.ctx.log.child('history');
    const store = await HistoryStore.open({
      dataDir: this.ctx.dataDir,
      log,
      ...(this.options.compactRatio === undefined ? {} : { compactRatio: this.options.compactRatio }),
      ...(this.options.compactMinBytes === undefined ? {} : { compactMinBytes: this.options.compactMinBytes }),
    });
    const { bus } = this.ctx;
    const recorder = new PrintRecorder({
      store,
      thumbnails: this.thumbnails,
      printers: this.options.printers,
      ledger: this.options.ledger,
      closed: (record) => bus.emit('history.added', record),
      log,
      announcements: await StoredAnnouncements.open(this.ctx.stores),
    });
    await recorder.resume();
    this.opened = { store, recorder };
    this.unsubscribe = [
      bus.on('printer.status', (status) => {
        recorder.noteError(status.printer_id, status.state === 'error' ? status.error : null);
        const observation = fromStatus(status);
        if (observation) recorder.observe(status.printer_id, observation, false);
      }),
      bus.on('print.progress', (progress) => {
        const observation = fromProgress(progress);
        if (observation) recorder.observe(progress.printer_id, observation, true);
      }),
      bus.on('print.dispatched', (event) => recorder.announceDispatch(event)),
      bus.on('print.starting', (event) => recorder.announceStart(event)),
    ];
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    const opened = this.opened;
    this.opened = null;
    if (!opened) return;
    await opened.recorder.stop();
    await opened.store.close();
  }

  /** The records; 503 while history is not open. */
  store(): HistoryStore {
    if (!this.opened) throw new AppError(ErrorCode.unavailable, 503, 'the print history is not open');
    return this.opened.store;
  }

  /** Resolves once every report received so far is recorded (tests). */
  async idle(): Promise<void> {
    await this.opened?.recorder.idle();
  }

  record(id: string): HistoryRecord {
    const record = this.store().get(id);
    if (!record) throw new AppError(ErrorCode.notFound, 404, `no print ${id} in the history`);
    return record;
  }

  /**
   * Adds an outside monitor's event to the print it is about: the printer's open record, else its
   * newest record that ended at most `recentMs` ago (a "print done" arrives just after the printer
   * said so). Written in the recorder's turn for that printer, so its own writes of the record
   * (progress, the end) do not overwrite the note. Resolves with the record's id, or null when
   * the printer has no such print.
   */
  async addMonitorNote(printerId: string, note: MonitorNote, recentMs = 15 * 60_000): Promise<string | null> {
    const store = this.store();
    const recorder = this.opened?.recorder;
    if (!recorder) return null;
    return recorder.inTurn(printerId, async () => {
      const now = Date.parse(note.at);
      const mine = store.all().filter((r) => r.printer_id === printerId);
      const target =
        mine.find((r) => r.state === 'printing') ??
        mine
          .filter((r) => r.ended_at !== null && now - Date.parse(r.ended_at) <= recentMs)
          .sort((a, b) => Date.parse(b.ended_at ?? '') - Date.parse(a.ended_at ?? ''))[0];
      if (!target) return null;
      await store.put({ ...target, monitor_events: [...(target.monitor_events ?? []), note] });
      return target.id;
    });
  }

  /** Removes a record and its picture; an open one's print is not recorded again. */
  async delete(id: string): Promise<void> {
    const record = this.record(id);
    this.opened?.recorder.forget(record);
    await this.store().delete(id);
    await this.thumbnails.remove(id);
  }

  info(): Record<string, unknown> {
    if (!this.opened) return { open: false };
    const { store } = this.opened;
    return { open: true, records: store.size, printing: store.open().length, log: store.stats(), problems: store.problems() };
  }
}
