/**
 * The spools page's data: every spool (GET /api/filaments, archived ones left out), the storage
 * locations with their latest reading, the printers (for slot assignment) and the low-stock list
 * of the statistics; kept current by `spool.update` and `inventory.climate`.
 */
import { signal } from '@preact/signals';
import { api, type Ok } from '../api/client';
import { LiveReplay } from '../api/live-replay';

type Flat = NonNullable<Ok<'GET /api/filaments'>['items']>[number];
/** The flat spool view: every field is answered (the schema marks none required). */
export type Spool = Required<Flat>;
export type Location = Ok<'GET /api/inventory/locations'>['items'][number];
export type Printer = Ok<'GET /api/printers'>['items'][number];
export type Slot = NonNullable<Spool['slot']>;
export interface ClimateEvent {
  location_id: number;
  at: string;
  temperature_c: number;
  humidity_pct: number;
}

export class SpoolsStore {
  readonly spools = signal<Spool[]>([]);
  readonly locations = signal<Location[]>([]);
  readonly printers = signal<Printer[]>([]);
  readonly lowStock = signal<Set<number>>(new Set());
  readonly loaded = signal(false);
  /** Bumped by every reading, so that the open charts reload. */
  readonly climateVersion = signal(0);
  private readonly replay = new LiveReplay();

  load(): Promise<void> {
    return this.replay.load(async () => {
      const [spools, locations, printers, stats] = await Promise.all([
        api('GET /api/filaments', { query: { archived: false } }),
        api('GET /api/inventory/locations'),
        api('GET /api/printers'),
        api('GET /api/filaments/stats'),
      ]);
      return () => {
        this.spools.value = (spools.items ?? []) as Spool[];
        this.locations.value = locations.items;
        this.printers.value = printers.items;
        // The statistics' answer is not described in detail by the API (an open object): read what is used.
        const low = (stats as { low_stock?: { spools?: Array<{ id: number }> } }).low_stock?.spools ?? [];
        this.lowStock.value = new Set(low.map((s) => s.id));
        this.loaded.value = true;
      };
    });
  }

  applySpool({ spool, deleted }: { spool: Spool; deleted: boolean }): void {
    this.replay.apply(() => {
      const others = this.spools.value.filter((s) => s.id !== spool.id);
      this.spools.value = deleted || spool.archived ? others : [...others, spool].sort((a, b) => a.id - b.id);
    });
  }

  applyClimate(reading: ClimateEvent): void {
    this.replay.apply(() => {
      this.locations.value = this.locations.value.map((l) =>
        l.id === reading.location_id
          ? { ...l, latest_reading: { at: reading.at, temperature_c: reading.temperature_c, humidity_pct: reading.humidity_pct } }
          : l,
      );
    });
    this.climateVersion.value++;
  }

  printerName(id: string | null): string {
    return this.printers.value.find((p) => p.id === id)?.name ?? id ?? '';
  }

  locationName(id: number | null): string | null {
    return this.locations.value.find((l) => l.id === id)?.name ?? null;
  }
}
