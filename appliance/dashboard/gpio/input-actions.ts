/**
 * What an input does when it becomes active (after debouncing):
 * - `filament_runout`, `door`: a print running on its printer is paused (heaters stay on, the
 *   head parks: the printer's own pause), and a warning says so. While nothing prints, nothing
 *   happens: an empty sensor or an open door is normal then.
 * - `emergency_stop`: the printer's power relay (if it has one) is cut at once, then a print
 *   running or paused is stopped; for every printer when the pin names none. An error says so.
 * - `plate_cleared`: the printer's plate is confirmed clear, as `POST /api/printers/:id/plate-cleared`
 *   does, and the queue's dispatch round runs; refused (a print runs) it warns.
 */
import type { NotificationInput } from '../notifications/notification.js';
import type { PrinterStatus } from '../printers/status.js';
import type { InputRole, PinConfig } from './config.js';

const RUNNING = new Set<PrinterStatus['state']>(['preparing', 'printing']);
const STOPPABLE = new Set<PrinterStatus['state']>(['preparing', 'printing', 'paused']);

export interface InputActions {
  /** Every printer's id, name and state. */
  printers(): Array<{ id: string; name: string; state: PrinterStatus['state'] }>;
  pause(printerId: string): Promise<void>;
  stop(printerId: string): Promise<void>;
  /** Cuts the printer's power relay; false when it has none. */
  cutPower(printerId: string, why: string): Promise<boolean>;
  plateCleared(printerId: string, by: string): Promise<void>;
  notify(input: NotificationInput): Promise<unknown>;
}

const WHAT: Readonly<Record<InputRole, string>> = {
  filament_runout: 'Filament ran out',
  door: 'Door opened',
  emergency_stop: 'Emergency stop',
  plate_cleared: 'Plate button',
};

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Acts on an input that became active; resolves with what was done, for the log. */
export async function actOnInput(pin: PinConfig & { role: InputRole }, actions: InputActions): Promise<string> {
  const all = actions.printers();
  const targets = pin.printer_id === null ? all : all.filter((p) => p.id === pin.printer_id);
  if (targets.length === 0) return `printer ${pin.printer_id} does not exist (any more)`;
  const data = { pin: pin.pin, role: pin.role };
  if (pin.role === 'plate_cleared') {
    const [printer] = targets;
    try {
      await actions.plateCleared(printer.id, `plate button (GPIO ${pin.pin})`);
      return `plate of ${printer.name} confirmed clear`;
    } catch (err) {
      await actions.notify({
        kind: 'gpio.input',
        level: 'warning',
        title: `${WHAT[pin.role]} on ${printer.name}`,
        message: `The plate could not be confirmed clear: ${message(err)}`,
        data: { ...data, printer_id: printer.id },
      });
      return `plate of ${printer.name} not confirmed: ${message(err)}`;
    }
  }
  if (pin.role === 'emergency_stop') {
    const done: string[] = [];
    for (const printer of targets) {
      const steps: string[] = [];
      if (await actions.cutPower(printer.id, `emergency stop (GPIO ${pin.pin})`)) steps.push('power cut');
      if (STOPPABLE.has(printer.state)) {
        try {
          await actions.stop(printer.id);
          steps.push('print stopped');
        } catch (err) {
          steps.push(`the print did not stop: ${message(err)}`);
        }
      }
      done.push(`${printer.name}: ${steps.length > 0 ? steps.join(', ') : 'nothing was running'}`);
    }
    await actions.notify({
      kind: 'gpio.input',
      level: 'error',
      title: WHAT[pin.role],
      message: `The emergency stop on GPIO ${pin.pin} was pressed. ${done.join('; ')}.`,
      data: { ...data, printer_ids: targets.map((p) => p.id) },
    });
    return done.join('; ');
  }
  const [printer] = targets;
  if (!RUNNING.has(printer.state)) return `${printer.name} is ${printer.state}: nothing to pause`;
  let outcome: string;
  try {
    await actions.pause(printer.id);
    outcome = 'The print was paused.';
  } catch (err) {
    outcome = `The print could not be paused: ${message(err)}`;
  }
  await actions.notify({
    kind: 'gpio.input',
    level: 'warning',
    title: `${WHAT[pin.role]} on ${printer.name}`,
    message: `${WHAT[pin.role]} (GPIO ${pin.pin}). ${outcome}`,
    data: { ...data, printer_id: printer.id },
  });
  return `${printer.name}: ${outcome}`;
}
