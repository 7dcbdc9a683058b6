/**
 * Carrying out a receiver's actions for one event: `notify` raises a notification, `pause`
 * pauses the mapped printer's print (the printer's own pause; nothing when it is not printing),
 * `record` adds the event to the printer's print in the history. Each action's outcome is
 * reported; one failing does not stop the others.
 */
import type { NotificationInput, NotificationLevel } from '../notifications/notification.js';
import type { MonitorNote } from '../history/record.js';
import type { EventKind, MonitorEvent } from './monitor-event.js';
import type { Action, Receiver } from './receivers.js';

export interface ActionPorts {
  /** The printer's name and state, or null when it does not exist. */
  printer(id: string): { name: string; state: string } | null;
  pause(printerId: string): Promise<void>;
  /** Adds the note to the printer's current or just-ended print; its record id, or null. */
  record(printerId: string, note: MonitorNote): Promise<string | null>;
  notify(input: NotificationInput): Promise<unknown>;
}

export interface ActionOutcome {
  action: Action;
  done: boolean;
  detail: string;
}

const LEVELS: Partial<Record<EventKind, NotificationLevel>> = {
  failure_detected: 'error',
  print_failed: 'error',
  printer_error: 'error',
  failure_warning: 'warning',
  attention_needed: 'warning',
  print_cancelled: 'warning',
};

const PAUSABLE = new Set(['preparing', 'printing']);

/** The dashboard printer a message is about: a mapping by the service's id or name, else the fallback. */
export function targetPrinter(receiver: Receiver, event: MonitorEvent): string | null {
  const names = [event.printer?.id, event.printer?.name].filter((n): n is string => typeof n === 'string');
  const mapped = receiver.printers.find((m) => names.includes(m.service_printer));
  return mapped?.printer_id ?? receiver.default_printer_id;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function runActions(receiver: Receiver, event: MonitorEvent, ports: ActionPorts, now: Date): Promise<ActionOutcome[]> {
  const actions = receiver.actions[event.kind] ?? [];
  const printerId = targetPrinter(receiver, event);
  const printer = printerId === null ? null : ports.printer(printerId);
  const outcomes: ActionOutcome[] = [];
  if (actions.includes('pause')) {
    if (printerId === null || printer === null) outcomes.push({ action: 'pause', done: false, detail: 'no printer of this box is mapped' });
    else if (!PAUSABLE.has(printer.state)) outcomes.push({ action: 'pause', done: false, detail: `${printer.name} is ${printer.state}` });
    else {
      try {
        await ports.pause(printerId);
        outcomes.push({ action: 'pause', done: true, detail: `${printer.name} paused` });
      } catch (err) {
        outcomes.push({ action: 'pause', done: false, detail: `${printer.name} did not pause: ${message(err)}` });
      }
    }
  }
  if (actions.includes('record')) {
    const note: MonitorNote = {
      at: now.toISOString(),
      source: event.service,
      event: event.kind,
      service_event: event.service_event,
      receiver_id: receiver.id,
      message: event.message,
      image_url: event.image_url,
    };
    if (printerId === null || printer === null) outcomes.push({ action: 'record', done: false, detail: 'no printer of this box is mapped' });
    else {
      try {
        const recordId = await ports.record(printerId, note);
        outcomes.push(
          recordId === null
            ? { action: 'record', done: false, detail: `${printer.name} has no current or recent print` }
            : { action: 'record', done: true, detail: `added to print ${recordId}` },
        );
      } catch (err) {
        outcomes.push({ action: 'record', done: false, detail: message(err) });
      }
    }
  }
  if (actions.includes('notify')) {
    const paused = outcomes.find((o) => o.action === 'pause');
    const where = printer ? ` on ${printer.name}` : '';
    const file = event.file ? ` (${event.file})` : '';
    await ports.notify({
      kind: `webhook.${event.kind}`,
      level: LEVELS[event.kind] ?? 'info',
      title: `${receiver.name}: ${event.kind.replaceAll('_', ' ')}${where}`,
      message: `${event.message}${file}${paused ? ` ${paused.done ? 'The print was paused.' : `Not paused: ${paused.detail}.`}` : ''}`,
      data: {
        receiver_id: receiver.id,
        service: event.service,
        service_event: event.service_event,
        printer_id: printerId,
        image_url: event.image_url,
      },
    });
    outcomes.push({ action: 'notify', done: true, detail: 'notification raised' });
  }
  return outcomes;
}
