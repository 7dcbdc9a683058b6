/**
 * Which header pin does what: `<data dir>/gpio.json`, `{pins: [...]}`, one entry per BCM pin with
 * its role and the role's keys. A store of its own rather than keys of config.json: the settings
 * are flat keys per section, and a pin map is a list whose entries have different keys per role.
 * The same check runs on the file at start and on `PUT /api/hardware/gpio/config`, and every
 * message names the entry, the pin and the role: `pins/2 (GPIO 17, door): printer_id "x" is
 * not a printer`.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import { HEADER_PINS } from '../../hardware/gpio/sysfs-map.js';

export const INPUT_ROLES = ['filament_runout', 'door', 'emergency_stop', 'plate_cleared'] as const;
export const OUTPUT_ROLES = ['power_relay', 'status_led'] as const;
export const PIN_ROLES = [...OUTPUT_ROLES, ...INPUT_ROLES] as const;
export type InputRole = (typeof INPUT_ROLES)[number];
export type PinRole = (typeof PIN_ROLES)[number];

export const DEFAULT_DEBOUNCE_MS = 50;
/** PSU Control's defaults are alike: off once the hot end is below 50 °C, after a grace period. */
export const DEFAULT_OFF_BELOW_C = 50;
export const DEFAULT_OFF_DELAY_S = 120;

export interface PinConfig {
  pin: number;
  role: PinRole;
  /** The printer the pin belongs to; null for the status LED, and for an emergency stop of every printer. */
  printer_id: string | null;
  /** The pin is active at a low level (relay boards that switch on low; a button to ground). */
  active_low: boolean;
  /** Inputs: how long a level must stay before it counts. */
  debounce_ms: number | null;
  /** Power relays: the hottest hot end below this after a print, the supply goes off… */
  off_below_c: number | null;
  /** …this many seconds later (a new print in between keeps it on). */
  off_delay_s: number | null;
}

export interface GpioConfig {
  pins: PinConfig[];
}

export const EMPTY_GPIO_CONFIG: GpioConfig = { pins: [] };

/** Keys each role takes besides `pin`, `role` and `active_low`. */
const ROLE_KEYS: Readonly<Record<PinRole, readonly string[]>> = {
  power_relay: ['printer_id', 'off_below_c', 'off_delay_s'],
  status_led: [],
  filament_runout: ['printer_id', 'debounce_ms'],
  door: ['printer_id', 'debounce_ms'],
  emergency_stop: ['printer_id', 'debounce_ms'],
  plate_cleared: ['printer_id', 'debounce_ms'],
};

export function isInputRole(role: PinRole): role is InputRole {
  return (INPUT_ROLES as readonly string[]).includes(role);
}

interface Problem {
  path: string;
  message: string;
}

type Entry = Record<string, unknown>;

function integerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function numberIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

/** The problems of one entry, and the entry with its defaults when there are none. */
function checkEntry(entry: Entry, where: string, printerExists: (id: string) => boolean): { problems: Problem[]; pin: PinConfig | null } {
  const problems: Problem[] = [];
  const pinText = typeof entry.pin === 'number' ? `GPIO ${entry.pin}` : 'a pin';
  const roleText = typeof entry.role === 'string' ? entry.role : 'no role';
  const say = (key: string, message: string) => problems.push({ path: `${where}/${key}`, message: `(${pinText}, ${roleText}): ${message}` });
  if (!integerIn(entry.pin, 0, HEADER_PINS - 1))
    say('pin', `pin must be a BCM GPIO number of the 40-pin header, 0–${HEADER_PINS - 1}; got ${JSON.stringify(entry.pin)}`);
  if (!(PIN_ROLES as readonly unknown[]).includes(entry.role)) {
    say('role', `role must be one of ${PIN_ROLES.join(', ')}; got ${JSON.stringify(entry.role)}`);
    return { problems, pin: null };
  }
  const role = entry.role as PinRole;
  const allowed = new Set(['pin', 'role', 'active_low', ...ROLE_KEYS[role]]);
  for (const key of Object.keys(entry))
    if (!allowed.has(key)) say(key, `${key} is not a key of a ${role} pin (its keys: ${[...allowed].join(', ')})`);
  if (entry.active_low !== undefined && typeof entry.active_low !== 'boolean') say('active_low', 'active_low must be true or false');
  const printerId = entry.printer_id ?? null;
  if (ROLE_KEYS[role].includes('printer_id')) {
    if (printerId === null && role !== 'emergency_stop') say('printer_id', `a ${role} pin needs the printer_id of its printer`);
    else if (printerId !== null && (typeof printerId !== 'string' || !printerExists(printerId)))
      say('printer_id', `printer_id ${JSON.stringify(printerId)} is not a printer of this dashboard`);
  }
  if (entry.debounce_ms !== undefined && !integerIn(entry.debounce_ms, 0, 10_000))
    say('debounce_ms', 'debounce_ms must be an integer from 0 to 10000');
  if (entry.off_below_c !== undefined && !numberIn(entry.off_below_c, 0, 300))
    say('off_below_c', 'off_below_c must be a temperature from 0 to 300 °C');
  if (entry.off_delay_s !== undefined && !integerIn(entry.off_delay_s, 0, 86_400))
    say('off_delay_s', 'off_delay_s must be an integer from 0 to 86400 s');
  if (problems.length > 0) return { problems, pin: null };
  const input = isInputRole(role);
  return {
    problems,
    pin: {
      pin: entry.pin as number,
      role,
      printer_id: printerId as string | null,
      active_low: (entry.active_low as boolean | undefined) ?? false,
      debounce_ms: input ? ((entry.debounce_ms as number | undefined) ?? DEFAULT_DEBOUNCE_MS) : null,
      off_below_c: role === 'power_relay' ? ((entry.off_below_c as number | undefined) ?? DEFAULT_OFF_BELOW_C) : null,
      off_delay_s: role === 'power_relay' ? ((entry.off_delay_s as number | undefined) ?? DEFAULT_OFF_DELAY_S) : null,
    },
  };
}

/** Rules across entries: a pin once, one relay per printer, one status LED. */
function crossProblems(pins: readonly PinConfig[], prefix: string): Problem[] {
  const problems: Problem[] = [];
  const seenPin = new Map<number, number>();
  const relayOf = new Map<string, number>();
  let led: number | null = null;
  pins.forEach((pin, index) => {
    const say = (message: string) => problems.push({ path: `${prefix}pins/${index}`, message: `(GPIO ${pin.pin}, ${pin.role}): ${message}` });
    const earlier = seenPin.get(pin.pin);
    if (earlier !== undefined) say(`GPIO ${pin.pin} is given twice: pins/${earlier} (${pins[earlier].role}) has it already`);
    else seenPin.set(pin.pin, index);
    if (pin.role === 'power_relay' && pin.printer_id !== null) {
      const other = relayOf.get(pin.printer_id);
      if (other !== undefined) say(`printer ${pin.printer_id} has a power relay already: GPIO ${pins[other].pin}`);
      else relayOf.set(pin.printer_id, index);
    }
    if (pin.role === 'status_led') {
      if (led !== null) say(`there is a status LED already: GPIO ${pins[led].pin}`);
      else led = index;
    }
  });
  return problems;
}

/**
 * Checks a pin map; `prefix` is where it came from in the paths (`body/` for the API, `` for the
 * file). Throws 400 ERR_VALIDATION with every problem in `details`.
 */
export function checkGpioConfig(input: unknown, printerExists: (id: string) => boolean, prefix: string): GpioConfig {
  const list = (input as { pins?: unknown } | null)?.pins;
  if (typeof input !== 'object' || input === null || Array.isArray(input) || !Array.isArray(list))
    throw configError([{ path: `${prefix}pins`, message: 'expected {"pins": [ {"pin": <BCM number>, "role": …}, … ]}' }]);
  const extra = Object.keys(input).filter((key) => key !== 'pins');
  const problems: Problem[] = extra.map((key) => ({ path: `${prefix}${key}`, message: 'is not a key of the GPIO configuration (only pins)' }));
  const pins: PinConfig[] = [];
  list.forEach((entry, index) => {
    const where = `${prefix}pins/${index}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push({ path: where, message: 'must be an object with pin and role' });
      return;
    }
    const checked = checkEntry(entry as Entry, where, printerExists);
    problems.push(...checked.problems);
    if (checked.pin) pins.push(checked.pin);
  });
  if (problems.length === 0) problems.push(...crossProblems(pins, prefix));
  if (problems.length > 0) throw configError(problems);
  return { pins };
}

function configError(problems: Problem[]): AppError {
  return new AppError(ErrorCode.validation, 400, problems.map((p) => `${p.path} ${p.message}`).join('; '), problems);
}

/** A pin map as it is stored and shown: the keys of its role only. */
export function storedPin(pin: PinConfig): Record<string, unknown> {
  const stored: Record<string, unknown> = { pin: pin.pin, role: pin.role, active_low: pin.active_low };
  for (const key of ROLE_KEYS[pin.role]) stored[key] = pin[key as keyof PinConfig];
  return stored;
}
