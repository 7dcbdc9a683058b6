/**
 * The fleet's live state: one entry per printer whose parts are separate signals (the printer's
 * settings, its status, its AMS), so that a status event re-renders that printer's card and
 * nothing else. The list of printers and the counts by state change identity only when their
 * content changes, so the page around the cards stays still while temperatures move.
 *
 * Loaded from GET /api/printers (and the AMS from each Bambu printer's /state), then kept current
 * by the live feed: `printer.status`, `print.progress`, `ams.update`. A status of a printer the
 * list does not know (added elsewhere) reloads the list.
 */
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { api, type Ok } from '../api/client';
import { LiveReplay } from '../api/live-replay';
import { JobPictures } from './job-pictures';

export type PrinterView = Ok<'GET /api/printers'>['items'][number];
export type PrinterStatus = PrinterView['status'];
export type PrinterState = PrinterStatus['state'];
export type PrintJob = NonNullable<PrinterStatus['job']>;
export type AmsUpdate = NonNullable<Ok<'GET /api/printers/{id}/state'>['ams']>;
export type AmsTray = AmsUpdate['units'][number]['trays'][number];
/** The `print.progress` event: the job's fields with the printer's id (printers/status.ts PrintProgress). */
export type PrintProgress = PrintJob & { printer_id: string };
export type Plate = Ok<'GET /api/printers/{id}/plate'>;

export const STATE_GROUPS = ['printing', 'idle', 'error', 'offline'] as const;
export type StateGroup = (typeof STATE_GROUPS)[number];

/** The summary's four groups (the printing / idle / error / offline). */
export function groupOf(state: PrinterState): StateGroup {
  switch (state) {
    case 'preparing':
    case 'printing':
    case 'paused':
      return 'printing';
    case 'idle':
    case 'finished':
      return 'idle';
    case 'error':
      return 'error';
    default:
      return 'offline';
  }
}

export interface PrinterEntry {
  readonly id: string;
  readonly view: Signal<PrinterView>;
  readonly status: Signal<PrinterStatus>;
  readonly ams: Signal<AmsUpdate | null>;
  /** The plate as the queue knows it; null without the queue. */
  readonly plate: Signal<Plate | null>;
  /** A blob: URL of the current job's picture (job-pictures.ts), or null. */
  readonly picture: Signal<string | null>;
}

export function newEntry(view: PrinterView): PrinterEntry {
  return { id: view.id, view: signal(view), status: signal(view.status), ams: signal(null), plate: signal(null), picture: signal(null) };
}

/** Bambu printers report an AMS; the others have none to ask for. */
const HAS_AMS = (view: PrinterView) => view.type.startsWith('bambu');
/** Parallel /state requests at load: the API's rate limit allows a burst of 20 per second. */
const STATE_CONCURRENCY = 4;

function ignore(): void {}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** A computed list that keeps its previous array while the content is the same. */
function stableList(compute: () => string[]): ReadonlySignal<string[]> {
  let last: string[] = [];
  return computed(() => {
    const next = compute();
    if (!sameList(last, next)) last = next;
    return last;
  });
}

export class FleetStore {
  private readonly entries = new Map<string, PrinterEntry>();
  private readonly ids = signal<string[]>([]);
  readonly loaded = signal(false);
  private readonly pictures = new JobPictures((id) => this.entries.get(id));
  private readonly replay = new LiveReplay();

  /** `filter` says which group the page shows (null: all); the page keeps it in its URL. */
  constructor(readonly filter: ReadonlySignal<StateGroup | null>) {}

  /** Printer ids by name, then the ones the filter lets through. */
  readonly visible = stableList(() => {
    const group = this.filter.value;
    return this.ids.value.filter((id) => group === null || this.groupOf(id) === group);
  });

  private readonly counts = Object.fromEntries(
    STATE_GROUPS.map((group) => [group, computed(() => this.ids.value.filter((id) => this.groupOf(id) === group).length)]),
  ) as Record<StateGroup, ReadonlySignal<number>>;

  /** How many printers are in `group`; a signal that changes only when the number does. */
  count(group: StateGroup): ReadonlySignal<number> {
    return this.counts[group];
  }

  readonly total = computed(() => this.ids.value.length);

  /** The group of a listed printer (read through its status signal, so computeds follow it). */
  private groupOf(id: string): StateGroup | undefined {
    const status = this.entries.get(id)?.status.value;
    return status === undefined ? undefined : groupOf(status.state);
  }

  entry(id: string): PrinterEntry | undefined {
    return this.entries.get(id);
  }

  /** Replaces the list with `items`, keeping the signals of printers that stay. */
  setPrinters(items: readonly PrinterView[]): void {
    const seen = new Set<string>();
    for (const view of items) {
      seen.add(view.id);
      const existing = this.entries.get(view.id);
      if (existing) {
        existing.view.value = view;
        existing.status.value = view.status;
      } else {
        this.entries.set(view.id, newEntry(view));
      }
    }
    for (const id of [...this.entries.keys()]) if (!seen.has(id)) this.entries.delete(id);
    const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true })).map((p) => p.id);
    if (!sameList(this.ids.value, sorted)) this.ids.value = sorted;
    this.loaded.value = true;
  }

  /** Loads the list and the AMS of the printers that have one. */
  async load(): Promise<void> {
    let items: PrinterView[] = [];
    await this.replay.load(async () => {
      // The plates are the queue's: without them the cards show none.
      const [printers, plates] = await Promise.all([api('GET /api/printers'), api('GET /api/queue/plates').catch(() => ({ items: [] }))]);
      items = printers.items;
      return () => {
        this.setPrinters(printers.items);
        for (const plate of plates.items) this.setPlate(plate);
      };
    });
    const queue = items.filter(HAS_AMS).map((p) => p.id);
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          const state = await api('GET /api/printers/{id}/state', { path: { id } });
          if (state.ams) this.applyAms(state.ams);
        } catch {
          // The AMS shows with the printer's next ams.update.
        }
      }
    };
    // The pictures are the history's: without them the cards show none.
    await Promise.all([...Array.from({ length: STATE_CONCURRENCY }, worker), this.pictures.loadAll().catch(ignore)]);
  }

  /** True when the status belongs to a known printer; false asks the caller to reload the list. */
  applyStatus(status: PrinterStatus): boolean {
    return this.replay.apply(() => {
      const entry = this.entries.get(status.printer_id);
      if (entry === undefined) return false;
      entry.status.value = status;
      this.pictures.follow(entry);
      return true;
    });
  }

  applyProgress(progress: PrintProgress): void {
    this.replay.apply(() => {
      const entry = this.entries.get(progress.printer_id);
      if (entry === undefined) return;
      const { printer_id: _id, file, progress: percent, layer, total_layers, elapsed_s, remaining_s } = progress;
      entry.status.value = { ...entry.status.value, job: { file, progress: percent, layer, total_layers, elapsed_s, remaining_s } };
    });
  }

  applyPlate(plate: Plate): void {
    this.replay.apply(() => this.setPlate(plate));
  }

  private setPlate(plate: Plate): void {
    const entry = this.entries.get(plate.printer_id);
    if (entry !== undefined) entry.plate.value = plate;
  }

  applyAms(update: AmsUpdate): void {
    const entry = this.entries.get(update.printer_id);
    if (entry !== undefined) entry.ams.value = update;
  }
}
