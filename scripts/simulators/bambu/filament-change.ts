/**
 * `print.ams_change_filament` on the virtual printer: loading a tray into the nozzle, or unloading
 * it (`target` 255), the way the firmware goes about it. The nozzle heats to `tar_temp`, the
 * filament in the nozzle (if any) is cut and pulled back (stage 22), the new one is fed (stage 24);
 * `tray_tar` names the target meanwhile, `tray_now` changes when it is done, and `ams_status`
 * shows main status 1 (filament change) in its high byte. Refused while a print is active or a
 * change is under way, and for a tray that is empty or not there.
 */
import { EXTERNAL_TRAY, findTray, NO_TRAY } from './ams.js';
import type { PrinterState } from './printer-state.js';
import type { Toolhead, ToolheadChange } from './toolhead.js';

/* Printer seconds to pull the old filament back and to feed the new one. */
export const UNLOAD_SECONDS = 20;
export const LOAD_SECONDS = 30;
/** `ams_status`: main status in the high byte (0 idle, 1 filament change), sub status in the low one. */
export const AMS_STATUS_FILAMENT_CHANGE = 0x0100;
/** `stg_cur` during a change (bambulabs_api PrintStatus). */
export const ChangeStage = { heatingNozzle: 7, unloading: 22, loading: 24 } as const;
/* Used when `tar_temp` is missing or -1 (Bambu Studio sends -1 when it knows no temperature). */
const DEFAULT_TEMP = 220;
const MAX_TEMP = 300;
const TEMP_WINDOW = 1;

export type ChangePhase = 'heating' | 'unloading' | 'loading';
const PHASE_STAGE: Record<ChangePhase, number> = {
  heating: ChangeStage.heatingNozzle,
  unloading: ChangeStage.unloading,
  loading: ChangeStage.loading,
};

export class FilamentChange implements ToolheadChange {
  phase: ChangePhase = 'heating';
  private left = 0;

  constructor(
    readonly target: number,
    readonly temp: number,
    private readonly targetBefore: number,
  ) {}

  get stage(): number {
    return PHASE_STAGE[this.phase];
  }

  tick(toolhead: Toolhead, seconds: number): boolean {
    if (this.phase === 'heating') {
      if (Math.abs(toolhead.nozzle.temp - this.temp) > TEMP_WINDOW) return false;
      if (toolhead.trayNow !== NO_TRAY) return this.enter('unloading', UNLOAD_SECONDS);
      if (this.target === NO_TRAY) return this.done(toolhead);
      return this.enter('loading', LOAD_SECONDS);
    }
    this.left -= seconds;
    if (this.left > 0) return false;
    if (this.phase === 'unloading') {
      toolhead.trayPrevious = toolhead.trayNow;
      toolhead.trayNow = NO_TRAY;
      if (this.target === NO_TRAY) return this.done(toolhead);
      return this.enter('loading', LOAD_SECONDS);
    }
    toolhead.trayNow = this.target;
    return this.done(toolhead);
  }

  private enter(phase: ChangePhase, seconds: number): boolean {
    this.phase = phase;
    this.left = seconds;
    return false;
  }

  private done(toolhead: Toolhead): boolean {
    toolhead.trayTarget = toolhead.trayNow;
    toolhead.nozzle.target = this.targetBefore;
    return true;
  }
}

/**
 * Starts a change as the request asks; returns the reason the printer gives when it refuses, or
 * null when it began.
 */
export function startFilamentChange(state: PrinterState, target: unknown, tarTemp: unknown): string | null {
  if (state.active) return 'device is busy: a print is in progress';
  if (state.filamentChange) return 'a filament change is already in progress';
  if (typeof target !== 'number' || !Number.isInteger(target)) return 'target must be a tray id';
  if (target !== NO_TRAY && target !== EXTERNAL_TRAY && !findTray(state.ams, target)) {
    const unit = state.ams[Math.floor(target / 4)];
    return unit && target < 16 ? `tray ${target} is empty` : `there is no tray ${target}`;
  }
  const asked = Number(tarTemp);
  const temp = Number.isFinite(asked) && asked > 0 ? Math.min(MAX_TEMP, Math.round(asked)) : DEFAULT_TEMP;
  state.filamentChange = new FilamentChange(target, temp, state.nozzle.target);
  state.trayTarget = target;
  state.nozzle.target = temp;
  return null;
}
