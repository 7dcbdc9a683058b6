/**
 * What an outside print monitor told the box, whatever service sent it: the services' payloads
 * (payloads.ts) are read into this one shape, and receivers map its `kind` to actions.
 */
export const MONITOR_SERVICES = ['obico', 'octoeverywhere', 'simplyprint'] as const;
export type MonitorService = (typeof MONITOR_SERVICES)[number];

/** The events an admin can attach actions to, as the box classes the services' own events. */
export const EVENT_KINDS = [
  'failure_detected',
  'failure_warning',
  'print_started',
  'print_done',
  'print_failed',
  'print_cancelled',
  'print_paused',
  'print_resumed',
  'printer_error',
  'attention_needed',
  'progress',
  'test',
  'other',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface MonitorEvent {
  service: MonitorService;
  kind: EventKind;
  /** The event as the service named it: `PrintFailure`, `7`, `job.done`. */
  service_event: string;
  /** The service's own printer, as it identifies it; null when the message names none (a test). */
  printer: { id: string | null; name: string | null } | null;
  /** The file being printed, when the service says. */
  file: string | null;
  /** A sentence for people: what the service reported. */
  message: string;
  /** The service's snapshot of the moment, when it sent one. */
  image_url: string | null;
}
