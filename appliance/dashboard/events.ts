/**
 * The dashboard's live events: what travels on the event bus and, as `{ type, payload }`, over
 * the WebSocket. The payload types live with the features that publish them.
 */
import type { AmsUpdate, PrinterStatus, PrintProgress } from './printers/status.js';
import type { Notification } from './notifications/notification.js';
import type { PlateChange } from './queue/plates.js';
import type { PrintDispatched } from './queue/print-dispatched.js';
import type { QueueUpdate } from './queue/queue-service.js';

export interface DashboardEvents {
  'printer.status': PrinterStatus;
  'print.progress': PrintProgress;
  'ams.update': AmsUpdate;
  notification: Notification;
  /** A queue job was added, changed (state, copies, waiting reason…) or removed. */
  'queue.update': QueueUpdate;
  /** The queue is about to start a print of a job's copy on a printer. */
  'print.dispatched': PrintDispatched;
  /** A printer's plate was confirmed clear, or a print occupied it. */
  'printer.plate': PlateChange;
}

export type DashboardEventType = keyof DashboardEvents;
