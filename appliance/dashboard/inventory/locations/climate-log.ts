/**
 * The climate readings of every location, in one append-only log (`inventory-climate.log`,
 * common/append-log.ts): a reading costs one appended line whatever the history's size, and the
 * log compacts itself as old readings fall out.
 *
 * Each location keeps a bounded series: readings of the last RETENTION_DAYS before its newest one,
 * and at most MAX_READINGS_PER_LOCATION of them (a sensor posting every minute fills exactly the
 * seven days; a faster one keeps a shorter window). The log also records when a humidity
 * excursion starts and ends, so that a restart neither forgets an open excursion nor notifies it
 * again.
 */
import path from 'node:path';
import { AppendLog, type AppendLogStats } from '../../../common/append-log.js';
import type { StoreProblem } from '../../../common/json-store.js';
import type { Logger } from '../../../common/logger.js';

export const CLIMATE_LOG_FILE = 'inventory-climate.log';
export const RETENTION_DAYS = 7;
export const RETENTION_MS = RETENTION_DAYS * 24 * 3600 * 1000;
export const MAX_READINGS_PER_LOCATION = RETENTION_DAYS * 24 * 60;

export interface ClimateReading {
  /** ISO 8601. */
  at: string;
  temperature_c: number;
  humidity_pct: number;
}

export interface Excursion {
  /** When the reading that crossed the limit was taken. */
  since: string;
  limit_pct: number;
}

interface LocationClimate {
  /** Oldest first. */
  readings: ClimateReading[];
  excursion: Excursion | null;
}

type ClimateRecord =
  | ({ op: 'reading'; location_id: number } & ClimateReading)
  | { op: 'excursion'; location_id: number; excursion: Excursion | null }
  | { op: 'forget'; location_id: number };

type ClimateState = Map<number, LocationClimate>;

function entry(state: ClimateState, id: number): LocationClimate {
  let found = state.get(id);
  if (found === undefined) {
    found = { readings: [], excursion: null };
    state.set(id, found);
  }
  return found;
}

/** Index of the first reading taken after `at` (readings are sorted by time). */
function insertionIndex(readings: readonly ClimateReading[], atMs: number): number {
  let low = 0;
  let high = readings.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (Date.parse(readings[mid].at) <= atMs) low = mid + 1;
    else high = mid;
  }
  return low;
}

function apply(state: ClimateState, record: ClimateRecord): void {
  if (record.op === 'forget') {
    state.delete(record.location_id);
    return;
  }
  const climate = entry(state, record.location_id);
  if (record.op === 'excursion') {
    climate.excursion = record.excursion;
    return;
  }
  const reading: ClimateReading = { at: record.at, temperature_c: record.temperature_c, humidity_pct: record.humidity_pct };
  const { readings } = climate;
  readings.splice(insertionIndex(readings, Date.parse(reading.at)), 0, reading);
  const oldestKept = Date.parse(readings[readings.length - 1].at) - RETENTION_MS;
  let drop = Math.max(0, readings.length - MAX_READINGS_PER_LOCATION);
  while (drop < readings.length && Date.parse(readings[drop].at) < oldestKept) drop++;
  if (drop > 0) readings.splice(0, drop);
}

function* snapshot(state: ClimateState): Iterable<ClimateRecord> {
  for (const [id, climate] of state) {
    for (const reading of climate.readings) yield { op: 'reading', location_id: id, ...reading };
    if (climate.excursion !== null) yield { op: 'excursion', location_id: id, excursion: climate.excursion };
  }
}

const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

function check(value: unknown): string | null {
  const r = value as Partial<Record<string, unknown>> | null;
  if (r === null || typeof r !== 'object' || !Number.isInteger(r.location_id)) return 'not a climate record (no integer location_id)';
  if (r.op === 'forget') return null;
  if (r.op === 'excursion') {
    const e = r.excursion as Partial<Excursion> | null | undefined;
    return e === null || (typeof e?.since === 'string' && finite(e.limit_pct)) ? null : 'an excursion record without since and limit_pct';
  }
  if (r.op !== 'reading') return `an unknown op ${JSON.stringify(r.op)}`;
  const timeOk = typeof r.at === 'string' && !Number.isNaN(Date.parse(r.at));
  return timeOk && finite(r.temperature_c) && finite(r.humidity_pct) ? null : 'a reading without at, temperature_c or humidity_pct';
}

export class ClimateLog {
  private constructor(private readonly log: AppendLog<ClimateState, ClimateRecord>) {}

  static async open(dataDir: string, log: Logger): Promise<ClimateLog> {
    const file = path.join(dataDir, CLIMATE_LOG_FILE);
    return new ClimateLog(await AppendLog.open<ClimateState, ClimateRecord>({ file, empty: () => new Map(), apply, snapshot, check, log }));
  }

  /** Readings taken from `fromMs` to `toMs`, both included, oldest first. */
  readings(locationId: number, fromMs: number, toMs: number): ClimateReading[] {
    const readings = this.log.state.get(locationId)?.readings ?? [];
    return readings.slice(insertionIndex(readings, fromMs - 1), insertionIndex(readings, toMs)).map((r) => ({ ...r }));
  }

  latest(locationId: number): ClimateReading | null {
    const readings = this.log.state.get(locationId)?.readings ?? [];
    return readings.length === 0 ? null : { ...readings[readings.length - 1] };
  }

  count(locationId: number): number {
    return this.log.state.get(locationId)?.readings.length ?? 0;
  }

  excursion(locationId: number): Excursion | null {
    const e = this.log.state.get(locationId)?.excursion ?? null;
    return e === null ? null : { ...e };
  }

  add(locationId: number, reading: ClimateReading): Promise<void> {
    return this.log.append({ op: 'reading', location_id: locationId, ...reading });
  }

  setExcursion(locationId: number, excursion: Excursion | null): Promise<void> {
    return this.log.append({ op: 'excursion', location_id: locationId, excursion });
  }

  forget(locationId: number): Promise<void> {
    return this.log.append({ op: 'forget', location_id: locationId });
  }

  stats(): AppendLogStats & { problems: readonly StoreProblem[] } {
    return { ...this.log.stats(), problems: this.log.problems() };
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
