/**
 * The fleet actions a printer may offer besides printing (motion, temperatures, fans, light,
 * speed, tool change, filament load/unload): their names, their parameters, and the JSON schema
 * of each, shared by the control routes (which validate bodies against them) and the drivers
 * (which list the ones they can do in `capabilities.actions` and receive them through
 * `command({ kind: 'action', action, params })`).
 *
 * Two refusals exist and mean different things:
 * - 422 `ERR_UNSUPPORTED_ACTION`: this printer can never do it (its driver does not offer the
 *   action, or the printer lacks the part the parameters name, such as a work light or a chamber
 *   heater). Sending it again will not help.
 * - 409 `ERR_CONFLICT`: it could, but not now (offline, busy printing, not paused, controls
 *   locked on the printer).
 */
import { AppError } from '../../common/errors.js';
import type { JsonSchema } from '../http/route.js';
import { validationError } from '../http/validate.js';
import { validate } from '../../common/json-schema.js';

export const PRINTER_ACTIONS = ['home', 'jog', 'temperature', 'fan', 'light', 'speed', 'tool_change', 'load_filament', 'unload_filament'] as const;
export type PrinterActionName = (typeof PRINTER_ACTIONS)[number];

export const ERR_UNSUPPORTED_ACTION = 'ERR_UNSUPPORTED_ACTION';

export const SPEED_LEVELS = ['silent', 'standard', 'sport', 'ludicrous'] as const;
export type SpeedLevel = (typeof SPEED_LEVELS)[number];

export type Axis = 'x' | 'y' | 'z';

/** Parameters per action, as the routes validated them. */
export interface PrinterActionParams {
  /** All axes when `axes` is omitted. */
  home: { axes?: Axis[] };
  /** Relative move in millimetres; feed rate in mm/min. */
  jog: { x?: number; y?: number; z?: number; feedrate?: number };
  /** `heater` as in `PrinterStatus.temperatures` (`tool0`, `bed`, `chamber`); 0 turns it off. */
  temperature: { heater: string; target: number };
  fan: { fan: 'part' | 'aux' | 'chamber'; percent: number };
  /** The chamber light when `light` is omitted. */
  light: { light?: 'chamber' | 'work'; on: boolean };
  /** Exactly one: a named level (Bambu) or a feed-rate percentage (Marlin M220). */
  speed: { level?: SpeedLevel; percent?: number };
  tool_change: { tool: number };
  /** `tray`: the AMS tray to load from (global id `unit × 4 + slot`) or the external spool (Bambu Lab; Marlin has none). */
  load_filament: { tool?: number; tray?: number | 'external' };
  unload_filament: { tool?: number };
}

/** The refusal for an action, or a parameter of one, that this printer can never do. */
export function unsupportedAction(message: string): AppError {
  return new AppError(ERR_UNSUPPORTED_ACTION, 422, message);
}

const tray: JsonSchema = {
  oneOf: [
    { type: 'integer', minimum: 0, maximum: 15 },
    { type: 'string', const: 'external' },
  ],
  description:
    'AMS tray to load from: global id unit × 4 + slot (0–15), or "external" for the external spool. ' +
    'Required on Bambu Lab printers; Marlin printers have no trays.',
};
const tool: JsonSchema = { type: 'integer', minimum: 0, maximum: 15, description: 'Tool (extruder) number, from 0.' };
const distance = (axis: string): JsonSchema => ({ type: 'number', minimum: -1000, maximum: 1000, description: `Relative ${axis} move in mm.` });

function object(properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', additionalProperties: false, required, properties, ...extra };
}

/** The body of `POST /api/printers/:id/actions/<name>`, per action. */
export const ACTION_BODY_SCHEMAS: Readonly<Record<PrinterActionName, JsonSchema>> = {
  home: object({
    axes: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['x', 'y', 'z'] },
      description: 'Axes to home; all when omitted.',
    },
  }),
  jog: object(
    { x: distance('X'), y: distance('Y'), z: distance('Z'), feedrate: { type: 'number', minimum: 1, maximum: 60000, description: 'mm/min.' } },
    [],
    { anyOf: [{ required: ['x'] }, { required: ['y'] }, { required: ['z'] }], description: 'At least one of x, y, z.' },
  ),
  temperature: object(
    {
      heater: { type: 'string', pattern: '^(tool[0-9]|bed|chamber)$', description: 'tool0…tool9, bed or chamber, as in the status.' },
      target: { type: 'number', minimum: 0, maximum: 500, description: 'Degrees Celsius; 0 turns the heater off.' },
    },
    ['heater', 'target'],
  ),
  fan: object(
    {
      fan: { type: 'string', enum: ['part', 'aux', 'chamber'], description: 'Part cooling, auxiliary, or chamber fan.' },
      percent: { type: 'number', minimum: 0, maximum: 100 },
    },
    ['fan', 'percent'],
  ),
  light: object({ light: { type: 'string', enum: ['chamber', 'work'], description: 'The chamber light when omitted.' }, on: { type: 'boolean' } }, [
    'on',
  ]),
  speed: object(
    {
      level: { type: 'string', enum: [...SPEED_LEVELS], description: 'Named speed level (Bambu Lab).' },
      percent: { type: 'number', minimum: 10, maximum: 500, description: 'Feed-rate percentage (Marlin M220).' },
    },
    [],
    { oneOf: [{ required: ['level'] }, { required: ['percent'] }], description: 'Exactly one of level and percent.' },
  ),
  tool_change: object({ tool }, ['tool']),
  load_filament: object({ tool, tray }),
  unload_filament: object({ tool }),
};

export const ACTION_SUMMARIES: Readonly<Record<PrinterActionName, string>> = {
  home: 'Home axes',
  jog: 'Move the toolhead by a relative distance',
  temperature: 'Set a heater target',
  fan: 'Set a fan speed',
  light: 'Switch a light',
  speed: 'Set the print speed',
  tool_change: 'Select a tool',
  load_filament: 'Load filament',
  unload_filament: 'Unload filament',
};

/**
 * The action, checked as every driver checks it: offered by this printer (else 422 with `refusal`
 * and the offered list) and with parameters its schema accepts (else 400; the routes checked the
 * body already, callers inside the dashboard get the same check).
 */
export function checkedAction(
  action: string,
  offered: readonly PrinterActionName[],
  rawParams: Readonly<Record<string, unknown>>,
  refusal: string,
): PrinterActionName {
  if (!(offered as readonly string[]).includes(action)) throw unsupportedAction(`${refusal} (offered: ${offered.join(', ')})`);
  const issues = validate(ACTION_BODY_SCHEMAS[action as PrinterActionName], rawParams, 'params');
  if (issues.length > 0) throw validationError(issues);
  return action as PrinterActionName;
}

/** Jog feed rates when the request names none (mm/min): across the bed, and for Z alone. */
const JOG_XY_FEEDRATE = 3000;
const JOG_Z_FEEDRATE = 600;

/** `G28` with the axes asked for (all when none). */
export function homeGcode(params: PrinterActionParams['home']): string {
  return ['G28', ...(params.axes ?? []).map((axis) => axis.toUpperCase())].join(' ');
}

/** A relative move: `G91`, `G1 X… Y… Z… F…`, `G90`. */
export function jogGcode(params: PrinterActionParams['jog']): string[] {
  const words = (['x', 'y', 'z'] as const)
    .filter((axis) => params[axis] !== undefined)
    .map((axis) => `${axis.toUpperCase()}${(params[axis] as number).toFixed(3).replace(/\.?0+$/, '')}`);
  const onlyZ = params.x === undefined && params.y === undefined;
  const feedrate = params.feedrate ?? (onlyZ ? JOG_Z_FEEDRATE : JOG_XY_FEEDRATE);
  return ['G91', `G1 ${words.join(' ')} F${Math.round(feedrate)}`, 'G90'];
}

/** A fan percentage as the 0–255 value of `M106 S`. */
export function fanPwm(percent: number): number {
  return Math.round((percent / 100) * 255);
}
