/**
 * Announced on the event bus just before a user's print is started through the dashboard
 * (slice-and-send): history ties the next print of that printer whose file matches to the user.
 * The queue announces its own prints with `print.dispatched` (queue/print-dispatched.ts), which
 * says more (job, copy, plan) and takes precedence.
 */
export interface PrintStarting {
  printer_id: string;
  /** The file name on the printer, as its driver starts it. */
  file: string;
  /** The user's name; null when an API key (an automation) asked. */
  user: string | null;
  at: string;
}
