/**
 * Whether each printer's plate is clear, as people confirmed it and prints left it, kept in
 * `queue-plates.json` so that a restart does not forget a plate full of parts. A printer the queue
 * has never heard about is `unknown`, which counts as occupied: the box cannot see the bed, and a
 * printer just added may well have the last print still on it. Someone confirms it clear once.
 */
import type { JsonStore, JsonStores } from '../../common/json-store.js';

export type PlateState = 'clear' | 'occupied';

/** What the bus and the WebSocket carry as `printer.plate`. */
export interface PlateChange {
  printer_id: string;
  state: PlateState;
  /** Who confirmed it clear (a user name, an API key's name), or what occupied it: `queue`, `printer`. */
  by: string;
  at: string;
}

export interface PlateView {
  printer_id: string;
  state: PlateState | 'unknown';
  by: string | null;
  at: string | null;
}

interface PlatesFile {
  printers: Record<string, PlateChange>;
}

function checkShape(data: unknown): string | null {
  const printers = (data as Partial<PlatesFile> | null)?.printers;
  if (typeof printers !== 'object' || printers === null || Array.isArray(printers)) return 'expected { printers: { <id>: plate } }';
  for (const plate of Object.values(printers)) {
    if ((plate as PlateChange)?.state !== 'clear' && (plate as PlateChange)?.state !== 'occupied')
      return 'a plate state is neither clear nor occupied';
  }
  return null;
}

export class Plates {
  private constructor(private readonly store: JsonStore<PlatesFile>) {}

  static async open(stores: JsonStores): Promise<Plates> {
    return new Plates(await stores.open<PlatesFile>('queue-plates', { printers: {} }, checkShape));
  }

  isClear(printerId: string): boolean {
    return this.store.data.printers[printerId]?.state === 'clear';
  }

  view(printerId: string): PlateView {
    const plate = this.store.data.printers[printerId];
    return plate ? { ...plate } : { printer_id: printerId, state: 'unknown', by: null, at: null };
  }

  /** Records the change durably; null when the plate was in that state already (nothing to announce). */
  async set(printerId: string, state: PlateState, by: string, at = new Date()): Promise<PlateChange | null> {
    if (this.store.data.printers[printerId]?.state === state) return null;
    const change: PlateChange = { printer_id: printerId, state, by, at: at.toISOString() };
    this.store.data.printers[printerId] = change;
    await this.store.write();
    return change;
  }
}
