/**
 * How the cost estimate reads what a print used when it is given a history record or a queue job
 * instead of grams and a time: a port, implemented by the history and queue features and wired in
 * services.ts (print-usage.ts).
 */

/** What a finished print used, or what a queued job is expected to use (the slicer's estimate). */
export interface PrintUsage {
  /** Filament, all tools together. */
  grams: number;
  duration_s: number;
  /** The printer it ran on, or the one it is pinned to; null for a job left free. */
  printer_id: string | null;
  /** The spool it came from when there was exactly one, else null (priced by material then). */
  spool_id?: number | null;
  /** The material, when known: prices a print without a spool. */
  material?: string | null;
}

export interface UsageLookup {
  /** A print history record by id; null when there is none. */
  history(id: string): PrintUsage | null;
  /** A queue job by id (one copy of it); null when there is none. */
  queueJob(id: string): PrintUsage | null;
}
