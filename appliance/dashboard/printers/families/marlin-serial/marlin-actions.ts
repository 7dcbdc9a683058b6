/**
 * The fleet actions (actions.ts) as Marlin G-code:
 * - home: `G28 [X] [Y] [Z]`; jog: `G91`, `G1 … F…`, `G90` (3000 mm/min in XY, 600 for Z alone);
 * - temperature: `M104 T<n> S<t>` for `tool<n>` (n below the firmware's EXTRUDER_COUNT),
 *   `M140 S<t>` for the bed, `M141 S<t>` for a chamber (Cap:CHAMBER_TEMPERATURE);
 * - fan: the part-cooling fan, `M106 S<0–255>` / `M107`;
 * - speed: a feed-rate percentage, `M220 S<p>`;
 * - tool change `T<n>`, only offered with several extruders;
 * - filament load/unload: `M701`/`M702 [T<n>]` (FILAMENT_LOAD_UNLOAD_GCODES). No `Cap:` line
 *   tells whether a build has them, so they are offered until the firmware answers
 *   `Unknown command`; from then on they are refused (422) without asking again;
 * - light: the case light, `M355 S1|S0`, only when the firmware reports Cap:TOGGLE_LIGHTS.
 * Refused with 422: what the printer has no part for (aux and chamber fans, a work light, a
 * chamber heater without the capability, a tool beyond the extruder count) and speed levels.
 * Refused with 409 while a print runs or is paused: motion, tool change and filament changes
 * (they would ruin the print, and a paused print returns to where it stopped).
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import {
  checkedAction,
  fanPwm,
  homeGcode,
  jogGcode,
  PRINTER_ACTIONS,
  unsupportedAction,
  type PrinterActionName,
  type PrinterActionParams,
} from '../../actions.js';
import type { FirmwareInfo } from './firmware-info.js';

export interface ActionContext {
  /** Null until the printer answered M115 once. */
  firmware: FirmwareInfo | null;
  /** A print runs or is paused. */
  printing: boolean;
  /** False once the firmware answered M701/M702 with `Unknown command`; null until tried. */
  filamentCommands: boolean | null;
}

/** The actions this printer offers, as far as is known (before the first connect, all it may have). */
export function offeredActions(ctx: ActionContext): PrinterActionName[] {
  const caps = ctx.firmware?.capabilities ?? {};
  return PRINTER_ACTIONS.filter((action) => {
    if (action === 'light') return caps.TOGGLE_LIGHTS === true;
    if (action === 'tool_change') return ctx.firmware === null || ctx.firmware.extruders > 1;
    if (action === 'load_filament' || action === 'unload_filament') return ctx.filamentCommands !== false;
    return true;
  });
}

function refuseWhilePrinting(ctx: ActionContext, what: string): void {
  if (ctx.printing) throw new AppError(ErrorCode.conflict, 409, `cannot ${what} while a print runs or is paused`);
}

/** The tool a parameter names, refused (422) beyond the extruders the firmware reported. */
function checkTool(ctx: ActionContext, tool: number): number {
  const extruders = ctx.firmware?.extruders ?? 1;
  if (tool >= extruders)
    throw unsupportedAction(
      `this printer has ${extruders} extruder${extruders === 1 ? '' : 's'} (tools 0–${extruders - 1}); there is no tool ${tool}`,
    );
  return tool;
}

export function actionCommands(action: string, rawParams: Readonly<Record<string, unknown>>, ctx: ActionContext): string[] {
  switch (checkedAction(action, offeredActions(ctx), rawParams, `this Marlin printer does not offer "${action}"`)) {
    case 'home': {
      const params = rawParams as PrinterActionParams['home'];
      refuseWhilePrinting(ctx, 'home');
      return [homeGcode(params)];
    }
    case 'jog': {
      const params = rawParams as PrinterActionParams['jog'];
      refuseWhilePrinting(ctx, 'move the toolhead');
      return jogGcode(params);
    }
    case 'temperature': {
      const params = rawParams as PrinterActionParams['temperature'];
      const target = Math.round(params.target);
      if (params.heater === 'bed') return [`M140 S${target}`];
      if (params.heater === 'chamber') {
        if (ctx.firmware?.capabilities.CHAMBER_TEMPERATURE !== true)
          throw unsupportedAction('this printer reports no chamber heater (Cap:CHAMBER_TEMPERATURE)');
        return [`M141 S${target}`];
      }
      return [`M104 T${checkTool(ctx, Number(params.heater.slice(4)))} S${target}`];
    }
    case 'fan': {
      const params = rawParams as PrinterActionParams['fan'];
      if (params.fan !== 'part')
        throw unsupportedAction(`Marlin printers are driven here through their part-cooling fan only; there is no "${params.fan}" fan to set`);
      const speed = fanPwm(params.percent);
      return [speed === 0 ? 'M107' : `M106 S${speed}`];
    }
    case 'light': {
      const params = rawParams as PrinterActionParams['light'];
      if ((params.light ?? 'chamber') !== 'chamber') throw unsupportedAction('Marlin has one case light (M355); there is no work light');
      return [`M355 S${params.on ? 1 : 0}`];
    }
    case 'speed': {
      const params = rawParams as PrinterActionParams['speed'];
      if (params.percent === undefined) throw unsupportedAction('Marlin printers take a feed-rate percentage (M220), not a speed level');
      return [`M220 S${Math.round(params.percent)}`];
    }
    case 'tool_change': {
      const params = rawParams as PrinterActionParams['tool_change'];
      const tool = checkTool(ctx, params.tool);
      refuseWhilePrinting(ctx, 'change tools');
      return [`T${tool}`];
    }
    case 'load_filament':
    case 'unload_filament': {
      const params = rawParams as PrinterActionParams['load_filament'];
      if (params.tray !== undefined) throw unsupportedAction('Marlin printers have no AMS trays; name a tool instead');
      const tool = params.tool === undefined ? null : checkTool(ctx, params.tool);
      refuseWhilePrinting(ctx, action === 'load_filament' ? 'load filament' : 'unload filament');
      return [`${action === 'load_filament' ? 'M701' : 'M702'}${tool === null ? '' : ` T${tool}`}`];
    }
    default:
      throw unsupportedAction(`this Marlin printer does not offer "${action}"`);
  }
}
