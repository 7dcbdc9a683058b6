/**
 * Driving a printer through its running driver: the live state, G-code lines, print control and
 * fleet actions (actions.ts). Checks come in a fixed order, so a client can tell the answers
 * apart:
 * 1. unknown printer → 404 ERR_NOT_FOUND;
 * 2. the printer's driver cannot do this at all → 422 ERR_UNSUPPORTED_ACTION (known from the
 *    driver also while the printer is offline);
 * 3. the printer is not connected (offline, disabled, no driver) → 409 ERR_CONFLICT;
 * 4. the driver's own answer: 409 when the printer's state forbids it now (pause when idle, a
 *    start while busy, controls locked without Developer Mode), 422 for a part the printer lacks,
 *    400 for a value out of its range, 503 when it did not answer.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import { unsupportedAction, type PrinterActionName } from './actions.js';
import type { CommandResult, DriverCapabilities, PrinterDriver } from './driver.js';
import type { PrinterFleet } from './fleet.js';
import type { PrinterManager } from './manager.js';
import type { AmsUpdate, PrinterStatus } from './status.js';

export const CONTROL_ACTIONS = ['pause', 'resume', 'stop'] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

export interface PrinterLiveState {
  printer_id: string;
  online: boolean;
  status: PrinterStatus;
  /** What the printer's driver can do; null when the printer has no driver (disabled, no driver for its type). */
  capabilities: Required<DriverCapabilities> | null;
  ams: AmsUpdate | null;
  /** Protocol facts the driver reports besides (see the driver's notes). */
  details: Record<string, unknown>;
}

export class PrinterControl {
  constructor(
    private readonly fleet: PrinterFleet,
    private readonly manager: PrinterManager,
  ) {}

  state(id: string): PrinterLiveState {
    const status = this.fleet.status(id);
    const capabilities = this.manager.capabilities(id);
    const live = this.manager.driver(id)?.state?.() ?? null;
    return {
      printer_id: id,
      online: status.online,
      status,
      capabilities: capabilities ? { ...capabilities, actions: [...(capabilities.actions ?? [])] } : null,
      ams: live?.ams ?? null,
      details: live?.details ?? {},
    };
  }

  /** Sends the text's non-empty lines as G-code. */
  command(id: string, text: string): Promise<CommandResult> {
    const lines = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    if (lines.length === 0)
      throw new AppError(ErrorCode.validation, 400, 'body/command holds no G-code', [{ path: 'body/command', message: 'holds no G-code' }]);
    const driver = this.connected(id, (c) => c.gcode_console, 'a G-code console');
    return driver.command({ kind: 'gcode', lines });
  }

  async control(id: string, action: ControlAction): Promise<void> {
    const driver = this.connected(id);
    await driver[action]();
  }

  async act(id: string, action: PrinterActionName, params: Readonly<Record<string, unknown>>): Promise<void> {
    const driver = this.connected(id, (c) => (c.actions ?? []).includes(action), `the "${action}" action`);
    await driver.command({ kind: 'action', action, params });
  }

  private connected(id: string, supports?: (capabilities: DriverCapabilities) => boolean, what?: string): PrinterDriver {
    const view = this.fleet.view(id);
    const capabilities = this.manager.capabilities(id);
    if (supports && capabilities && !supports(capabilities)) throw unsupportedAction(`${view.type} printers do not offer ${what}`);
    const driver = this.manager.driver(id);
    if (!driver) {
      const reason = view.status.error ?? view.status.state;
      throw new AppError(ErrorCode.conflict, 409, `printer "${view.name}" is not connected (${reason})`, { state: view.status.state });
    }
    if (supports && !supports(driver.capabilities)) throw unsupportedAction(`${view.type} printers do not offer ${what}`);
    return driver;
  }
}
