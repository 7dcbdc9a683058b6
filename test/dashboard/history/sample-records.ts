/** History records made up for the route and stats tests: known values, written straight to the store. */
import type { FilamentUsed, HistoryRecord } from '../../../appliance/dashboard/history/record.js';

let counter = 0;

/** A closed record; `start` is an ISO time, `minutes` its duration. */
export function sampleRecord(start: string, minutes: number, extra: Partial<HistoryRecord> = {}): HistoryRecord {
  counter++;
  const startedMs = Date.parse(start);
  const id = `${startedMs.toString(36).padStart(9, '0')}${counter.toString(36).padStart(3, '0')}abcdef`;
  return {
    id,
    printer_id: 'p1',
    printer_name: 'Printer one',
    printer_type: 'marlin-serial',
    file: `part-${counter}.gcode`,
    started_by: { kind: 'user', user: 'alice', job_id: null, copy: null },
    started_at: new Date(startedMs).toISOString(),
    ended_at: new Date(startedMs + minutes * 60_000).toISOString(),
    duration_s: minutes * 60,
    state: 'finished',
    error: null,
    progress: 100,
    filament: [],
    cost: null,
    thumbnail: null,
    estimate_s: null,
    filament_booked: true,
    ...extra,
  };
}

export function used(material: string, grams: number, cost: number | null = null): FilamentUsed {
  return { slot: { kind: 'tool', tool: 0 }, spool_id: null, material, color_hex: null, grams, length_mm: null, cost };
}
