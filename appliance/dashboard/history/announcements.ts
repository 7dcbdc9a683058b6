/**
 * The announcements waiting for their print, one per printer (the newest wins), kept in
 * `history-announcements.json` through the atomic store: a print announced just before the box
 * restarts, and reported by the printer only after, is still tied to its user, job and plan.
 *
 * Expiry: an announcement claims a print for ANNOUNCEMENT_TTL_MS (30 minutes) from the moment it
 * was announced, by the wall clock, whether the box restarted in between or not; older ones are
 * dropped when the file is read at start and whenever it is written, and never claim a print.
 */
import type { JsonStore, JsonStores, ShapeCheck } from '../../common/json-store.js';
import type { PrintStarting } from '../printers/print-starting.js';
import type { PrintDispatched } from '../queue/print-dispatched.js';

/** An announcement older than this no longer claims a print (the start it announced did not happen). */
export const ANNOUNCEMENT_TTL_MS = 30 * 60_000;

export type Announcement = { kind: 'queue'; event: PrintDispatched; atMs: number } | { kind: 'user'; event: PrintStarting; atMs: number };

interface AnnouncementsFile {
  printers: Record<string, Announcement>;
}

const checkShape: ShapeCheck = (data) => {
  const printers = (data as Partial<AnnouncementsFile> | null)?.printers;
  if (typeof printers !== 'object' || printers === null || Array.isArray(printers)) return 'no printers object';
  for (const [id, a] of Object.entries(printers)) {
    const ok =
      (a?.kind === 'queue' || a?.kind === 'user') && Number.isFinite(a.atMs) && typeof a.event?.file === 'string' && a.event.printer_id === id;
    if (!ok) return `announcement of printer ${id} is malformed`;
  }
  return null;
};

export interface Announcements {
  /** The printer's announcement if one waits and has not expired. */
  get(printerId: string): Announcement | null;
  /** Keeps `announcement` as the printer's; on disk when the promise resolves. */
  set(printerId: string, announcement: Announcement): Promise<void>;
  /** Drops the printer's announcement if it is still `announcement` (a print claimed it). */
  take(printerId: string, announcement: Announcement): Promise<void>;
}

/** In memory only: for a recorder without a data directory (unit tests). */
export class MemoryAnnouncements implements Announcements {
  private readonly waiting = new Map<string, Announcement>();
  constructor(private readonly now: () => number = Date.now) {}

  get(printerId: string): Announcement | null {
    const a = this.waiting.get(printerId) ?? null;
    return a !== null && this.now() - a.atMs <= ANNOUNCEMENT_TTL_MS ? a : null;
  }

  async set(printerId: string, announcement: Announcement): Promise<void> {
    this.waiting.set(printerId, announcement);
  }

  async take(printerId: string, announcement: Announcement): Promise<void> {
    if (this.waiting.get(printerId) === announcement) this.waiting.delete(printerId);
  }
}

export class StoredAnnouncements implements Announcements {
  private constructor(
    private readonly store: JsonStore<AnnouncementsFile>,
    private readonly now: () => number,
  ) {}

  static async open(stores: JsonStores, now: () => number = Date.now): Promise<StoredAnnouncements> {
    const store = await stores.open<AnnouncementsFile>('history-announcements', { printers: {} }, checkShape);
    const announcements = new StoredAnnouncements(store, now);
    if (announcements.dropExpired()) await store.write();
    return announcements;
  }

  get(printerId: string): Announcement | null {
    const a = this.store.data.printers[printerId] ?? null;
    return a !== null && this.now() - a.atMs <= ANNOUNCEMENT_TTL_MS ? a : null;
  }

  async set(printerId: string, announcement: Announcement): Promise<void> {
    this.store.data.printers[printerId] = announcement;
    this.dropExpired();
    await this.store.write();
  }

  async take(printerId: string, announcement: Announcement): Promise<void> {
    const current = this.store.data.printers[printerId];
    if (current === undefined || current.atMs !== announcement.atMs || current.kind !== announcement.kind) return;
    delete this.store.data.printers[printerId];
    this.dropExpired();
    await this.store.write();
  }

  /** True when something was dropped. */
  private dropExpired(): boolean {
    let dropped = false;
    for (const [id, a] of Object.entries(this.store.data.printers)) {
      if (this.now() - a.atMs > ANNOUNCEMENT_TTL_MS) {
        delete this.store.data.printers[id];
        dropped = true;
      }
    }
    return dropped;
  }
}
