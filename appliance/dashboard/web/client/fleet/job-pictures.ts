/**
 * The picture of each printer's current job, for the fleet's cards: the plate picture the history
 * record of the running print has (`GET /api/history?state=printing`, then its thumbnail.png).
 * The picture needs the session's token, so it is fetched and shown as a blob: URL (the app's CSP
 * allows them), released when the job changes. A new job's record is made as the print starts,
 * so a changed job is looked up a moment later, and once more if the record was not there yet.
 */
import { api } from '../api/client';
import type { PrinterEntry } from './store';

const LOOKUP_DELAYS_MS = [1500, 5000];
const RUNNING_PAGE = 100;

type Running = { id: string; printer_id: string; thumbnail: string | null };

export class JobPictures {
  /** The job file each printer's picture belongs to, so an unchanged job is not looked up again. */
  private readonly files = new Map<string, string | null>();
  private readonly timers = new Map<string, number>();

  constructor(private readonly entry: (id: string) => PrinterEntry | undefined) {}

  /** At load: the pictures of every running print at once. */
  async loadAll(): Promise<void> {
    const page = await api('GET /api/history', { query: { state: 'printing', limit: RUNNING_PAGE } });
    for (const record of page.items) {
      const entry = this.entry(record.printer_id);
      if (entry === undefined) continue;
      this.files.set(entry.id, entry.status.value.job?.file ?? null);
      await this.show(entry, record);
    }
  }

  /** After a status: a new job gets its picture looked up, a finished one loses it. */
  follow(entry: PrinterEntry): void {
    const file = entry.status.value.job?.file ?? null;
    if (this.files.has(entry.id) && this.files.get(entry.id) === file) return;
    this.files.set(entry.id, file);
    window.clearTimeout(this.timers.get(entry.id));
    this.release(entry);
    if (file !== null) this.lookUp(entry, 0);
  }

  private lookUp(entry: PrinterEntry, attempt: number): void {
    this.timers.set(
      entry.id,
      window.setTimeout(async () => {
        try {
          const page = await api('GET /api/history', { query: { printer_id: entry.id, state: 'printing', limit: 1 } });
          const record = page.items[0];
          if (record !== undefined) await this.show(entry, record);
          else if (attempt + 1 < LOOKUP_DELAYS_MS.length) this.lookUp(entry, attempt + 1);
        } catch {
          // No history feature, or no picture: the card shows none.
        }
      }, LOOKUP_DELAYS_MS[attempt]),
    );
  }

  private async show(entry: PrinterEntry, record: Running): Promise<void> {
    if (record.thumbnail === null) return;
    const picture = (await api('GET /api/history/{id}/thumbnail.png', { path: { id: record.id } })) as unknown as Blob;
    this.release(entry);
    entry.picture.value = URL.createObjectURL(picture);
  }

  private release(entry: PrinterEntry): void {
    if (entry.picture.value !== null) URL.revokeObjectURL(entry.picture.value);
    entry.picture.value = null;
  }
}
