/**
 * Figures over the ended prints that a query selects (open ones are left out: they have no
 * outcome yet). README.md defines each one.
 */
import { END_STATES, totalGrams, type EndState, type HistoryRecord } from './record.js';

export interface GroupStats {
  prints: number;
  finished: number;
  /** finished ÷ prints, 0–1; null without prints. */
  success_rate: number | null;
  print_hours: number;
  filament_g: number;
  cost: number;
}

export interface EstimateAccuracy {
  /** Finished prints with an estimate. */
  samples: number;
  /** Of real duration ÷ estimate: above 1, prints take longer than the slicer said. */
  mean_ratio: number | null;
  median_ratio: number | null;
}

export interface HistoryStats {
  total: GroupStats;
  by_state: Record<EndState, number>;
  by_printer: Record<string, GroupStats & { printer_name: string }>;
  by_material: Record<string, GroupStats>;
  /** By `YYYY-MM` of the start, UTC. */
  by_month: Record<string, GroupStats>;
  estimate_accuracy: EstimateAccuracy;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

class Group {
  prints = 0;
  finished = 0;
  seconds = 0;
  grams = 0;
  cost = 0;

  add(record: HistoryRecord, grams: number, cost: number): void {
    this.prints++;
    if (record.state === 'finished') this.finished++;
    this.seconds += record.duration_s ?? 0;
    this.grams += grams;
    this.cost += cost;
  }

  view(): GroupStats {
    return {
      prints: this.prints,
      finished: this.finished,
      success_rate: this.prints === 0 ? null : round(this.finished / this.prints, 4),
      print_hours: round(this.seconds / 3600, 3),
      filament_g: round(this.grams, 3),
      cost: round(this.cost, 4),
    };
  }
}

function groupIn(groups: Map<string, Group>, key: string): Group {
  let group = groups.get(key);
  if (!group) {
    group = new Group();
    groups.set(key, group);
  }
  return group;
}

function views(groups: Map<string, Group>): Record<string, GroupStats> {
  return Object.fromEntries([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, group]) => [key, group.view()]));
}

function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function historyStats(records: Iterable<HistoryRecord>): HistoryStats {
  const total = new Group();
  const byState = Object.fromEntries(END_STATES.map((s) => [s, 0])) as Record<EndState, number>;
  const printers = new Map<string, Group>();
  const printerNames = new Map<string, string>();
  const materials = new Map<string, Group>();
  const months = new Map<string, Group>();
  const ratios: number[] = [];
  for (const record of records) {
    if (record.state === 'printing') continue;
    const grams = totalGrams(record);
    const cost = record.cost ?? 0;
    total.add(record, grams, cost);
    byState[record.state]++;
    groupIn(printers, record.printer_id).add(record, grams, cost);
    printerNames.set(record.printer_id, record.printer_name);
    groupIn(months, record.started_at.slice(0, 7)).add(record, grams, cost);
    // A print counts once per material, with the filament and cost of that material only.
    const perMaterial = new Map<string, { grams: number; cost: number }>();
    for (const f of record.filament) {
      const key = f.material ?? 'unknown';
      const sum = perMaterial.get(key) ?? { grams: 0, cost: 0 };
      sum.grams += f.grams ?? 0;
      sum.cost += f.cost ?? 0;
      perMaterial.set(key, sum);
    }
    for (const [material, sum] of perMaterial) groupIn(materials, material).add(record, sum.grams, sum.cost);
    if (record.state === 'finished' && record.estimate_s !== null && record.estimate_s > 0 && record.duration_s !== null) {
      ratios.push(record.duration_s / record.estimate_s);
    }
  }
  ratios.sort((a, b) => a - b);
  const mean = ratios.length === 0 ? null : ratios.reduce((a, b) => a + b, 0) / ratios.length;
  const med = median(ratios);
  const byPrinter = Object.fromEntries(
    Object.entries(views(printers)).map(([id, stats]) => [id, { ...stats, printer_name: printerNames.get(id) ?? id }]),
  );
  return {
    total: total.view(),
    by_state: byState,
    by_printer: byPrinter,
    by_material: views(materials),
    by_month: views(months),
    estimate_accuracy: {
      samples: ratios.length,
      mean_ratio: mean === null ? null : round(mean, 4),
      median_ratio: med === null ? null : round(med, 4),
    },
  };
}
