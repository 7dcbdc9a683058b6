/**
 * One printer's page state: the printer (as the fleet's entry shape, so the fleet's controls and
 * AMS swatches work on it), its capabilities, the plate and the temperature series of the chart.
 * Loaded from the API (printer, /state, plate), then kept current by the live feed; a (re)connect
 * of the feed reloads it, since events may have been missed.
 */
import { signal } from '@preact/signals';
import { api, type Ok } from '../api/client';
export type { Plate } from '../fleet/store';
import { newEntry, type AmsUpdate, type Plate, type PrinterEntry, type PrinterStatus, type PrinterView, type PrintProgress } from '../fleet/store';
import { TemperatureSeries } from './temperature-series';

export type Capabilities = NonNullable<Ok<'GET /api/printers/{id}/state'>['capabilities']>;
export type ActionName = Capabilities['actions'][number];

export class PrinterPageStore {
  readonly entry: PrinterEntry;
  readonly capabilities = signal<Capabilities | null>(null);
  readonly series = new TemperatureSeries();

  constructor(view: PrinterView) {
    this.entry = newEntry(view);
    this.series.add(view.status, Date.now());
  }

  get id(): string {
    return this.entry.id;
  }

  static async open(id: string): Promise<PrinterPageStore> {
    const store = new PrinterPageStore(await api('GET /api/printers/{id}', { path: { id } }));
    await store.reload();
    return store;
  }

  /** Everything the page shows besides the history; the plate is the queue's (absent without it). */
  async reload(): Promise<void> {
    const [view, state] = await Promise.all([
      api('GET /api/printers/{id}', { path: { id: this.id } }),
      api('GET /api/printers/{id}/state', { path: { id: this.id } }),
    ]);
    this.entry.view.value = view;
    this.applyStatus(state.status);
    this.capabilities.value = state.capabilities;
    this.entry.ams.value = state.ams;
    try {
      this.entry.plate.value = await api('GET /api/printers/{id}/plate', { path: { id: this.id } });
    } catch {
      this.entry.plate.value = null;
    }
  }

  /** True when the action is offered by this printer's driver (the server refuses the others with 422). */
  offers(action: ActionName): boolean {
    return this.capabilities.value?.actions.includes(action) ?? false;
  }

  applyStatus(status: PrinterStatus): void {
    if (status.printer_id !== this.id) return;
    this.entry.status.value = status;
    this.series.add(status, Date.now());
  }

  applyProgress(progress: PrintProgress): void {
    if (progress.printer_id !== this.id) return;
    const { printer_id: _id, file, progress: percent, layer, total_layers, elapsed_s, remaining_s } = progress;
    this.entry.status.value = { ...this.entry.status.value, job: { file, progress: percent, layer, total_layers, elapsed_s, remaining_s } };
  }

  applyAms(update: AmsUpdate): void {
    if (update.printer_id === this.id) this.entry.ams.value = update;
  }

  applyPlate(plate: Plate): void {
    if (plate.printer_id === this.id) this.entry.plate.value = plate;
  }
}
