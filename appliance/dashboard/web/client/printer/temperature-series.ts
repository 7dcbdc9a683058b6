/**
 * The chart's data: every heater's actual and target temperature over the last ten minutes, in
 * uPlot's column form (times in seconds, one array per line). A printer reports a status only
 * when something changed, so the page also adds the last status every few seconds (`tick`): a
 * steady temperature is a flat line up to now, not a line that stops at its last change.
 */
import { signal } from '@preact/signals';
import { heaterOrder } from '../fleet/format';
import type { PrinterStatus } from '../fleet/store';

export const WINDOW_MS = 10 * 60 * 1000;

interface Point {
  at: number;
  temperatures: PrinterStatus['temperatures'];
}

export interface SeriesData {
  /** Heaters by their status name, in display order. */
  heaters: string[];
  /** [times, heater0 actual, heater0 target, heater1 actual, …]. */
  columns: (number | null)[][];
}

export class TemperatureSeries {
  private points: Point[] = [];
  /** Bumped on every change, so a chart can follow with one signal. */
  readonly version = signal(0);

  add(status: PrinterStatus, at: number): void {
    this.points.push({ at, temperatures: status.temperatures });
    const oldest = at - WINDOW_MS;
    while (this.points.length > 0 && this.points[0].at < oldest) this.points.shift();
    this.version.value++;
  }

  /** Repeats the newest point at `at`, so the lines reach the present. */
  tick(at: number): void {
    const last = this.points.at(-1);
    if (last !== undefined) this.add({ temperatures: last.temperatures } as PrinterStatus, at);
  }

  pointCount(): number {
    return this.points.length;
  }

  /** The newest temperatures, by heater. */
  latest(): PrinterStatus['temperatures'] {
    return this.points.at(-1)?.temperatures ?? {};
  }

  data(): SeriesData {
    const heaters = [...new Set(this.points.flatMap((p) => Object.keys(p.temperatures)))].sort((a, b) => heaterOrder(a) - heaterOrder(b));
    const columns: (number | null)[][] = [this.points.map((p) => p.at / 1000)];
    for (const heater of heaters) {
      columns.push(this.points.map((p) => p.temperatures[heater]?.actual ?? null));
      columns.push(this.points.map((p) => p.temperatures[heater]?.target ?? null));
    }
    return { heaters, columns };
  }
}
