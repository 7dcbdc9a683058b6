/**
 * The queue as the page shows it: the jobs in the API's order, the plates, and the printers' names,
 * and the queue-wide pause, kept current by the live feed (`queue.update` {action, job} or {action:
 * paused|resumed, pause}, `printer.plate`). A job's reason to
 * wait is worked out by every dispatch round and only announced, so the events carry the newest.
 */
import { signal } from '@preact/signals';
import { api, type Ok } from '../api/client';
import { LiveReplay } from '../api/live-replay';

export type Job = Ok<'GET /api/queue'>['items'][number];
export type Plate = Ok<'GET /api/queue/plates'>['items'][number];
export type Printer = Ok<'GET /api/printers'>['items'][number];
export type Pause = Ok<'GET /api/queue'>['pause'];
/** A job added, changed or removed; or the queue-wide pause changed. */
export type QueueUpdate = { action: 'added' | 'changed' | 'removed'; job: Job } | { action: 'paused' | 'resumed'; pause: Pause };

/** States whose jobs are still in play (done and cancelled ones sort last in the API's list too). */
export const ACTIVE_STATES: readonly Job['state'][] = ['queued', 'held', 'dispatching', 'printing', 'failed'];

export class QueueStore {
  readonly jobs = signal<Job[]>([]);
  readonly plates = signal<Plate[]>([]);
  readonly printers = signal<Printer[]>([]);
  readonly pause = signal<Pause>({ paused: false, reasons: [] });
  readonly loaded = signal(false);
  private readonly replay = new LiveReplay();

  load(): Promise<void> {
    return this.replay.load(async () => {
      const [queue, plates, printers] = await Promise.all([api('GET /api/queue'), api('GET /api/queue/plates'), api('GET /api/printers')]);
      return () => {
        this.jobs.value = queue.items;
        this.pause.value = queue.pause;
        this.plates.value = plates.items;
        this.printers.value = printers.items;
        this.loaded.value = true;
      };
    });
  }

  /** A change of the pause, or of one job: positions of the others may have moved too, so a move reloads the list. */
  apply(update: QueueUpdate): boolean {
    return this.replay.apply(() => this.change(update));
  }

  applyPlate(plate: Plate): void {
    this.replay.apply(() => {
      const others = this.plates.value.filter((p) => p.printer_id !== plate.printer_id);
      this.plates.value = [...others, plate];
    });
  }

  applyPrinter(status: Printer['status']): void {
    this.replay.apply(() => {
      this.printers.value = this.printers.value.map((p) => (p.id === status.printer_id ? { ...p, status } : p));
    });
  }

  private change(update: QueueUpdate): boolean {
    if ('pause' in update) {
      this.pause.value = update.pause;
      return true;
    }
    const { job } = update;
    const list = this.jobs.value;
    const index = list.findIndex((j) => j.id === job.id);
    if (update.action === 'removed') {
      this.jobs.value = list.filter((j) => j.id !== job.id);
      return true;
    }
    if (index === -1 || list[index].position !== job.position || list[index].priority !== job.priority) return false;
    this.jobs.value = list.map((j, i) => (i === index ? job : j));
    return true;
  }

  printerName(id: string): string {
    return this.printers.value.find((p) => p.id === id)?.name ?? id;
  }

  /** The printers whose plate waits for somebody to confirm it clear, and that are not printing. */
  platesToClear(): Array<{ printer: Printer; plate: Plate }> {
    return this.printers.value
      .map((printer) => ({ printer, plate: this.plates.value.find((p) => p.printer_id === printer.id) }))
      .filter((e): e is { printer: Printer; plate: Plate } => e.plate !== undefined && e.plate.state !== 'clear')
      .filter((e) => !['printing', 'preparing', 'paused'].includes(e.printer.status.state))
      .sort((a, b) => a.printer.name.localeCompare(b.printer.name, undefined, { numeric: true }));
  }
}
