/**
 * A notification: something a person should hear about (a print finished, a printer reported an
 * error, the slicer service went away). It is stored in the in-app list, pushed over the
 * WebSocket as `notification`, and handed to every enabled outgoing channel.
 */
import { formatBytes } from '../../common/body-size.js';
import { nestsDeeperThan } from '../http/validate.js';

export const NOTIFICATION_LEVELS = ['info', 'warning', 'error'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

export interface Notification {
  id: string;
  /** What happened, dotted or snake case: `print.finished`, `slicer_service_disconnected`. */
  kind: string;
  level: NotificationLevel;
  title: string;
  message: string;
  /** Machine-readable details (printer id, file name…); an empty object when there are none. */
  data: Record<string, unknown>;
  /** ISO 8601. */
  created_at: string;
  read: boolean;
}

/** What a feature passes to `NotificationCenter.notify`. */
export interface NotificationInput {
  kind: string;
  level: NotificationLevel;
  title: string;
  message: string;
  data?: Record<string, unknown>;
}

/** `data` is details, not a payload: every notification is stored, pushed and sent as it is. */
export const DATA_MAX_BYTES = 8 * 1024;
/** Levels of objects and arrays in `data`, counting `data` itself. */
export const DATA_MAX_DEPTH = 8;

/** Why `data` cannot be raised (too deep, too large, not JSON), or null. */
export function dataProblem(data: Record<string, unknown>): string | null {
  if (nestsDeeperThan(data, DATA_MAX_DEPTH)) return `must not nest objects and arrays more than ${DATA_MAX_DEPTH} levels deep`;
  let text: string;
  try {
    text = JSON.stringify(data);
  } catch (err) {
    return `must be plain JSON (${err instanceof Error ? err.message : String(err)})`;
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > DATA_MAX_BYTES) return `must be at most ${formatBytes(DATA_MAX_BYTES)} as JSON (it is ${formatBytes(bytes)})`;
  return null;
}
