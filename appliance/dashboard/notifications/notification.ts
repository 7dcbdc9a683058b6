/**
 * A notification: something a person should hear about (a print finished, a printer reported an
 * error, the slicer service went away). It is stored in the in-app list, pushed over the
 * WebSocket as `notification`, and handed to every enabled outgoing channel.
 */
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
