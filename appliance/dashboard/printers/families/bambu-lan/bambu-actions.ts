/**
 * The fleet actions (actions.ts) as Bambu LAN requests, each with the effect that confirms it in
 * a report when the reply is lost:
 * - home, jog, temperature, fan: `print.gcode_line` (G28; G91/G1/G90; M104/M140; M106 P1/P2/P3)
 * - light: `system.ledctrl` on `chamber_light` or `work_light`
 * - speed: `print.print_speed` with level 1–4 (silent, standard, sport, ludicrous)
 * - load_filament, unload_filament: `print.ams_change_filament` (filament-change.ts)
 * Not offered (422): tool change (one nozzle; the AMS changes filament, not tools); a feed-rate
 * percentage (the printers only have levels); heaters and lights the printer does not have.
 * Motion while a print is running is refused (409): it would ruin the print.
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import {
  checkedAction,
  fanPwm,
  homeGcode,
  jogGcode,
  SPEED_LEVELS,
  unsupportedAction,
  type PrinterActionName,
  type PrinterActionParams,
} from '../../actions.js';
import { ACTIVE_STATES, gcodeState, lightNodes } from './bambu-status.js';
import type { BambuRequest } from './bambu-request.js';
import { filamentRequest } from './filament-change.js';
import type { Json } from './report-state.js';

/** Filament load/unload on every printer: each has the external spool holder, AMS or not (filament-change.ts). */
export const BAMBU_ACTIONS: readonly PrinterActionName[] = [
  'home',
  'jog',
  'temperature',
  'fan',
  'light',
  'speed',
  'load_filament',
  'unload_filament',
];

const MAX_TARGET: Readonly<Record<string, { gcode: string; field: string; max: number }>> = {
  tool0: { gcode: 'M104', field: 'nozzle_target_temper', max: 300 },
  bed: { gcode: 'M140', field: 'bed_target_temper', max: 120 },
};
const FAN_INDEX: Readonly<Record<string, { index: number; field: string }>> = {
  part: { index: 1, field: 'cooling_fan_speed' },
  aux: { index: 2, field: 'big_fan1_speed' },
  chamber: { index: 3, field: 'big_fan2_speed' },
};
const FAN_GEARS = 15;

/** `print.gcode_line`: lines joined by newlines, as the firmware takes several at once. */
export function gcodeRequest(lines: readonly string[], confirm?: (print: Json) => boolean): BambuRequest {
  return { kind: 'print', command: 'gcode_line', params: { param: `${lines.join('\n')}\n` }, ...(confirm ? { confirm } : {}) };
}

function refuseWhilePrinting(print: Json, what: string): void {
  const state = gcodeState(print);
  if (ACTIVE_STATES.has(state)) throw new AppError(ErrorCode.conflict, 409, `cannot ${what} while the printer is ${state}`);
}

function near(value: unknown, expected: number, tolerance: number): boolean {
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n - expected) <= tolerance;
}

export function actionRequest(action: string, rawParams: Readonly<Record<string, unknown>>, print: Json): BambuRequest {
  switch (checkedAction(action, BAMBU_ACTIONS, rawParams, `Bambu Lab printers on the LAN driver do not offer "${action}"`)) {
    case 'home': {
      const params = rawParams as PrinterActionParams['home'];
      refuseWhilePrinting(print, 'home');
      return gcodeRequest([homeGcode(params)]);
    }
    case 'jog': {
      const params = rawParams as PrinterActionParams['jog'];
      refuseWhilePrinting(print, 'move the toolhead');
      return gcodeRequest(jogGcode(params));
    }
    case 'temperature': {
      const params = rawParams as PrinterActionParams['temperature'];
      const heater = MAX_TARGET[params.heater];
      if (!heater)
        throw unsupportedAction(`this printer has no heater "${params.heater}" that can be set (it has: ${Object.keys(MAX_TARGET).join(', ')})`);
      if (params.target > heater.max) {
        throw new AppError(ErrorCode.validation, 400, `body/target must be at most ${heater.max} for ${params.heater}`, [
          { path: 'body/target', message: `must be at most ${heater.max} for ${params.heater}` },
        ]);
      }
      const target = Math.round(params.target);
      return gcodeRequest([`${heater.gcode} S${target}`], (p) => near(p[heater.field], target, 0.5));
    }
    case 'fan': {
      const params = rawParams as PrinterActionParams['fan'];
      const fan = FAN_INDEX[params.fan];
      const speed = fanPwm(params.percent);
      const gear = Math.round((speed / 255) * FAN_GEARS);
      return gcodeRequest([`M106 P${fan.index} S${speed}`], (p) => near(p[fan.field], gear, 0));
    }
    case 'light': {
      const params = rawParams as PrinterActionParams['light'];
      const node = `${params.light ?? 'chamber'}_light`;
      const known = lightNodes(print);
      if (known.length > 0 && !known.includes(node))
        throw unsupportedAction(`this printer has no ${params.light ?? 'chamber'} light (it has: ${known.join(', ')})`);
      const mode = params.on ? 'on' : 'off';
      return {
        kind: 'system',
        command: 'ledctrl',
        params: { led_node: node, led_mode: mode, led_on_time: 500, led_off_time: 500, loop_times: 1, interval_time: 1000 },
        confirm: (p) => Array.isArray(p.lights_report) && p.lights_report.some((l: Json) => l?.node === node && l?.mode === mode),
      };
    }
    case 'speed': {
      const params = rawParams as PrinterActionParams['speed'];
      if (params.level === undefined)
        throw unsupportedAction('Bambu Lab printers take a speed level (silent, standard, sport, ludicrous), not a percentage');
      const level = SPEED_LEVELS.indexOf(params.level) + 1;
      return { kind: 'print', command: 'print_speed', params: { param: String(level) }, confirm: (p) => Number(p.spd_lvl) === level };
    }
    case 'load_filament':
    case 'unload_filament':
      return filamentRequest(action as 'load_filament' | 'unload_filament', rawParams as PrinterActionParams['load_filament'], print);
    default:
      throw unsupportedAction(`Bambu Lab printers on the LAN driver do not offer "${action}"`);
  }
}
