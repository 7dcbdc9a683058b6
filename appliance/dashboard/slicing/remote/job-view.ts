/**
 * The slicer service's job records as the dashboard shows them: each with its `owner` (the user
 * or API key that started it here, or null), the download links pointing at the dashboard, every
 * string cleaned of the token and credentials (redact.ts), and, for everyone but admins, no
 * server paths: `gcode_path` and every other `…_path`/`…_dir` field, string values that are
 * absolute paths, and paths inside text are removed. The same rules apply to the `done` and
 * `error` events of the relayed event stream.
 */
import type { JobOwner } from '../ownership.js';
import { hidePaths, isServerPath } from './redact.js';

export interface JobViewOptions {
  /** Admins see server paths; nobody else does. */
  paths: boolean;
  /** Cleans a string the service wrote (the client's `clean`). */
  clean(text: string): string;
  ownerOf(jobId: string): JobOwner | null;
}

/** Records deeper than this are cut there: the service's records are a few levels deep. */
const MAX_DEPTH = 16;
const PATH_KEY = /(^|_)(path|dir|directory)$/i;
const JOB_LISTS = ['running', 'queued', 'finished'] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function scrub(value: unknown, options: JobViewOptions, depth: number): Json | undefined {
  if (typeof value === 'string') {
    const text = options.clean(value);
    if (options.paths) return text;
    return isServerPath(text) ? undefined : hidePaths(text);
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value !== 'object' || depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) return value.map((item) => scrub(item, options, depth + 1) ?? null);
  const out: { [key: string]: Json } = {};
  for (const [key, item] of Object.entries(value)) {
    if (!options.paths && PATH_KEY.test(key)) continue;
    const shown = scrub(item, options, depth + 1);
    if (shown !== undefined) out[key] = shown;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The dashboard's links for a job's files. */
export function jobLinks(jobId: string): { gcode_url: string; preview_url: string } {
  const id = encodeURIComponent(jobId);
  return { gcode_url: `/api/slicer/remote/jobs/${id}/gcode`, preview_url: `/api/slicer/remote/preview?job=${id}` };
}

/** A Slice result (a `done` event, a job's `result`) as shown. */
export function resultView(result: unknown, options: JobViewOptions): Json | undefined {
  const shown = scrub(result, options, 0);
  if (!isRecord(shown) || typeof shown.job_id !== 'string') return shown;
  return { ...shown, ...jobLinks(shown.job_id) };
}

/** One job record as shown, with its owner. */
export function jobView(record: unknown, options: JobViewOptions): Json | undefined {
  const shown = scrub(record, options, 0);
  if (!isRecord(shown) || typeof shown.id !== 'string') return shown;
  const job: { [key: string]: Json } = { ...shown, owner: options.ownerOf(shown.id) as Json };
  if (isRecord(job.result)) job.result = { ...job.result, ...jobLinks(shown.id) };
  return job;
}

/** GET /api/jobs as shown: each list's records through `jobView`, the rest scrubbed. */
export function jobListView(body: unknown, options: JobViewOptions): Json | undefined {
  if (!isRecord(body)) return scrub(body, options, 0);
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(body)) {
    if (!options.paths && PATH_KEY.test(key)) continue;
    const shown =
      (JOB_LISTS as readonly string[]).includes(key) && Array.isArray(value)
        ? value.map((record) => jobView(record, options) ?? null)
        : scrub(value, options, 0);
    if (shown !== undefined) out[key] = shown;
  }
  return out;
}
