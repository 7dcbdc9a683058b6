/**
 * One print as history keeps it: who started it, on which printer, when, how it ended, the
 * filament it took from which spool and what that cost. A record is written when the print starts
 * (state `printing`, the open record) and again when it ends (one of the end states); README.md
 * says how prints are matched and what each field means.
 */
import type { FilamentSlot } from '../printers/filament-slot.js';

/** `printing` is an open record (the print runs, or is paused); the others are end states. */
export const RECORD_STATES = ['printing', 'finished', 'cancelled', 'failed', 'interrupted'] as const;
export type RecordState = (typeof RECORD_STATES)[number];
export type EndState = Exclude<RecordState, 'printing'>;
export const END_STATES: readonly EndState[] = ['finished', 'cancelled', 'failed', 'interrupted'];

export const STARTER_KINDS = ['user', 'queue', 'printer'] as const;
export type StarterKind = (typeof STARTER_KINDS)[number];

export interface StartedBy {
  /** `user`: a person through the dashboard; `queue`: a queue job; `printer`: its own screen or card. */
  kind: StarterKind;
  /** The user's name; null for the printer, for automations (API keys) and when not known. */
  user: string | null;
  job_id: string | null;
  /** 1-based copy of the queue job; null unless kind is `queue`. */
  copy: number | null;
}

export interface FilamentUsed {
  slot: FilamentSlot;
  /** The spool the filament came from, when known. */
  spool_id: number | null;
  material: string | null;
  /** `#rrggbb`, or null when unknown. */
  color_hex: string | null;
  grams: number | null;
  length_mm: number | null;
  /** Filament cost from the spool's price and initial weight; null without a price. */
  cost: number | null;
}

/** What an outside monitor (an incoming webhook: Obico, OctoEverywhere, SimplyPrint) said about the print. */
export interface MonitorNote {
  /** ISO 8601, when the box received it. */
  at: string;
  /** `obico`, `octoeverywhere`, `simplyprint`. */
  source: string;
  /** The event as the box classes it: `failure_detected`, `print_done`, … */
  event: string;
  /** The event as the service named it (`PrintFailure`, `7`, `job.done`). */
  service_event: string;
  /** The receiver that took it in. */
  receiver_id: string;
  message: string;
  /** The service's picture of the moment, when it sent one. */
  image_url: string | null;
}

export interface HistoryRecord {
  id: string;
  printer_id: string;
  printer_name: string;
  printer_type: string;
  file: string;
  started_by: StartedBy;
  /** ISO 8601. */
  started_at: string;
  /** ISO 8601; null while the print runs. */
  ended_at: string | null;
  /** Wall-clock seconds from start to end (pauses included); null while the print runs. */
  duration_s: number | null;
  state: RecordState;
  /** Why the print failed or was interrupted, as the driver said; null otherwise. */
  error: string | null;
  /** 0–100: where the print was when it ended (or last seen, while it runs). */
  progress: number;
  filament: FilamentUsed[];
  /** Sum of the slots' costs; null when no slot has one. */
  cost: number | null;
  /** `/api/history/<id>/thumbnail.png`, or null when the print came without a picture. */
  thumbnail: string | null;
  /** The slicer's estimate of the print time, seconds; null when unknown. */
  estimate_s: number | null;
  /** The filament was taken off the spools (the ledger answered for every slot). */
  filament_booked: boolean;
  /** Outside monitors' events on this print (webhooks/); absent until the first one. */
  monitor_events?: MonitorNote[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const nullableString = (value: unknown) => value === null || typeof value === 'string';
const nullableNumber = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value));

function slotProblem(slot: unknown): string | null {
  if (!isObject(slot)) return 'a filament slot is not an object';
  if (slot.kind === 'tool') return Number.isInteger(slot.tool) ? null : 'a tool slot has no tool number';
  if (slot.kind === 'ams') return Number.isInteger(slot.unit) && Number.isInteger(slot.tray) ? null : 'an AMS slot has no unit or tray';
  return slot.kind === 'external' ? null : 'a filament slot has an unknown kind';
}

function filamentProblem(entry: unknown): string | null {
  if (!isObject(entry)) return 'a filament entry is not an object';
  const problem = slotProblem(entry.slot);
  if (problem !== null) return problem;
  if (!(entry.spool_id === null || Number.isInteger(entry.spool_id))) return 'a filament spool_id is not an integer';
  for (const key of ['material', 'color_hex'] as const) if (!nullableString(entry[key])) return `a filament ${key} is not a string`;
  for (const key of ['grams', 'length_mm', 'cost'] as const) if (!nullableNumber(entry[key])) return `a filament ${key} is not a number`;
  return null;
}

/** Why a value is not a history record (null when it is one): what the log refuses and replay skips. */
export function recordProblem(r: unknown): string | null {
  if (!isObject(r)) return 'the record is not an object';
  for (const key of ['id', 'printer_id', 'printer_name', 'printer_type', 'file', 'started_at'] as const) {
    if (typeof r[key] !== 'string') return `the record's ${key} is not a string`;
  }
  if (!RECORD_STATES.includes(r.state as RecordState)) return 'the record state is unknown';
  const by = r.started_by;
  if (!isObject(by) || !STARTER_KINDS.includes(by.kind as StarterKind)) return 'started_by is not a known starter';
  if (!nullableString(by.user) || !nullableString(by.job_id) || !nullableNumber(by.copy)) return 'started_by has a field of the wrong type';
  for (const key of ['ended_at', 'error', 'thumbnail'] as const) if (!nullableString(r[key])) return `the record's ${key} is not a string`;
  for (const key of ['duration_s', 'cost', 'estimate_s'] as const) if (!nullableNumber(r[key])) return `the record's ${key} is not a number`;
  if (typeof r.progress !== 'number' || typeof r.filament_booked !== 'boolean') return 'the record has no progress or booking flag';
  if (!Array.isArray(r.filament)) return "the record's filament is not a list";
  if (r.monitor_events !== undefined && !Array.isArray(r.monitor_events)) return "the record's monitor_events is not a list";
  for (const entry of r.filament) {
    const problem = filamentProblem(entry);
    if (problem !== null) return problem;
  }
  return null;
}

/** Total grams of a record (slots without a weight count nothing). */
export function totalGrams(record: Pick<HistoryRecord, 'filament'>): number {
  let sum = 0;
  for (const f of record.filament) sum += f.grams ?? 0;
  return sum;
}

/** Time-ordered, unique ids: milliseconds and a counter in base 36, then random letters. */
let lastMs = 0;
let sequence = 0;
export function newRecordId(now: Date): string {
  const ms = now.getTime();
  sequence = ms === lastMs ? sequence + 1 : 0;
  lastMs = ms;
  const random = Math.random().toString(36).slice(2, 8).padEnd(6, '0');
  return `${ms.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(3, '0')}${random}`;
}

export const RECORD_ID_PATTERN = '^[0-9a-z]{18}$';
