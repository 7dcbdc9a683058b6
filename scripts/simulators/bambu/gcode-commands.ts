/**
 * Single G-code lines sent with `print.gcode_line` (several separated by `\n`), applied to the
 * virtual printer: heater targets (M104/M109, M140/M190), fans (M106 P1 part, P2 auxiliary,
 * P3 chamber; M107), homing (G28). The firmware accepts any other line; so does the simulator,
 * without effect.
 */
import { CommandLetter, GcodeReader, type GcodeWords, Letter, type GcodeSink } from '../../../appliance/slicer/engine/estimate/gcode-reader.js';
import type { PrinterState } from './printer-state.js';

const MAX_NOZZLE_C = 300;
const MAX_BED_C = 120;

class LineSink implements GcodeSink {
  constructor(private readonly state: PrinterState) {}

  command(letter: number, code: number, w: GcodeWords): void {
    const s = w.number(Letter.S);
    if (letter === CommandLetter.G && code === 28) this.state.homed = true;
    if (letter !== CommandLetter.M) return;
    switch (code) {
      case 104:
      case 109:
        if (s !== undefined) this.state.nozzle.target = clamp(s, MAX_NOZZLE_C);
        break;
      case 140:
      case 190:
        if (s !== undefined) this.state.bed.target = clamp(s, MAX_BED_C);
        break;
      case 106:
        this.fan(w.number(Letter.P) ?? 1, s ?? 255);
        break;
      case 107:
        this.state.partFan = 0;
        break;
    }
  }

  comment(): void {}

  extended(): void {}

  private fan(index: number, speed: number): void {
    const value = clamp(speed, 255);
    if (index === 2) this.state.auxFan = value;
    else if (index === 3) this.state.chamberFan = value;
    else this.state.partFan = value;
  }
}

function clamp(value: number, max: number): number {
  return Math.min(max, Math.max(0, value));
}

/** Applies the lines; throws when the text is not G-code (a line over 1 MiB). */
export function applyGcodeLines(state: PrinterState, text: string): void {
  const reader = new GcodeReader(new LineSink(state));
  reader.feed(text);
  reader.end();
}
