/**
 * The virtual printer's toolhead: the nozzle heater and which tray's filament is in the nozzle,
 * is wanted, and was there before. The printer state (printer-state.ts) owns these fields; a
 * filament change (filament-change.ts) moves them on and sees only this part, so the two modules
 * do not import each other.
 */

export interface Heater {
  temp: number;
  target: number;
}

export interface Toolhead {
  readonly nozzle: Heater;
  trayNow: number;
  trayTarget: number;
  trayPrevious: number;
}

/** A change of filament under way, moved on by the printer's clock. */
export interface ToolheadChange {
  /** `stg_cur` while it lasts. */
  readonly stage: number;
  /** Moves the change on by `seconds`; true when it is done. */
  tick(toolhead: Toolhead, seconds: number): boolean;
}
