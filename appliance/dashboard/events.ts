/**
 * The dashboard's live events: what travels on the event bus and, as `{ type, payload }`, over
 * the WebSocket. The payload types live with the features that publish them.
 */
import type { HistoryRecord } from './history/record.js';
import type { SpoolUpdate } from './inventory/inventory.js';
import type { ClimateEvent } from './inventory/locations/climate.js';
import type { ModelJob } from './model-generation/jobs.js';
import type { Notification } from './notifications/notification.js';
import type { PrintStarting } from './printers/print-starting.js';
import type { AmsUpdate, PrinterStatus, PrintProgress } from './printers/status.js';
import type { PlateChange } from './queue/plates.js';
import type { RemoteStatus } from './slicing/remote/probe.js';
import type { PrintDispatched } from './queue/print-dispatched.js';
import type { QueueUpdate } from './queue/queue-service.js';
import type { UpdateProgress } from './system-update/updates.js';

export interface DashboardEvents {
  'printer.status': PrinterStatus;
  'print.progress': PrintProgress;
  'ams.update': AmsUpdate;
  notification: Notification;
  /** A spool was added, changed (used, loaded, edited) or deleted (`deleted: true`, the spool as it was). */
  'spool.update': SpoolUpdate;
  /** Every climate reading of a storage location, with its humidity limit and excursion state. */
  'inventory.climate': ClimateEvent;
  'print.starting': PrintStarting;
  'history.added': HistoryRecord;
  /** A queue job was added, changed (state, copies, waiting reason…) or removed; or the queue-wide pause changed. */
  'queue.update': QueueUpdate;
  /** The queue is about to start a print of a job's copy on a printer. */
  'print.dispatched': PrintDispatched;
  /** A printer's plate was confirmed clear, or a print occupied it. */
  'printer.plate': PlateChange;
  /** What the slicer service's status indicator shows changed: enabled, configured, reachable or not (spec section 3). */
  'slicer.status': RemoteStatus;
  /** A model generation job was queued, progressed, finished or failed (the job as GET /api/ai-model/jobs/:id answers). */
  'model.job': ModelJob;
  /** An OS update's progress (receiving, checking, installing with RAUC's percentage) and its end (installed or failed). */
  'system.update': UpdateProgress;
}

export type DashboardEventType = keyof DashboardEvents;
