/**
 * Announced on the event bus just before a user's print is started through the dashboard
 * (slice-and-send): history ties the next print of that printer whose file matches to the user,
 * with the plan (the slicer's estimate, the filament per slot and the spool there), as the queue's
 * `print.dispatched` (queue/print-dispatched.ts) does for its prints; that one says more (job,
 * copy, picture) and takes precedence.
 */
import type { PlannedFilament } from '../queue/print-dispatched.js';

export interface PrintStarting {
  printer_id: string;
  /** The file name on the printer, as its driver starts it. */
  file: string;
  /** The user's name; null when an API key (an automation) asked. */
  user: string | null;
  /** The slicer's estimate for the whole print, or null when it is not known. */
  estimate_s: number | null;
  /** Per slicer filament: where the printer feeds it from, the spool there, the slicer's grams and length. */
  filaments: PlannedFilament[];
  at: string;
}
