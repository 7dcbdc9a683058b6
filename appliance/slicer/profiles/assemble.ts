/**
 * Assembles the engine's PrintConfig for one job: schema defaults ← printer ← process ← filaments
 * (one array element per filament slot) ← per-job overrides.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import { SETTINGS, defaultConfig, parseSetting, type ConfigPatch, type PrintConfig, type SettingDef } from './schema.js';

export interface AssemblyParts {
  printerId: string;
  printer: ConfigPatch;
  process: ConfigPatch;
  /** Resolved filament settings, in slot order. */
  filaments: ConfigPatch[];
  overrides?: Record<string, unknown>;
}

/* extruder_offset is a list of points, not a perExtruder key in the schema, yet holds one point per
   extruder; it is stretched along with the perExtruder keys. */
const PER_EXTRUDER_POINT_KEYS = ['extruder_offset'] as const;

export function assembleConfig(parts: AssemblyParts): PrintConfig {
  const config = defaultConfig() as unknown as Record<string, unknown>;
  Object.assign(config, structuredClone(parts.printer), structuredClone(parts.process));
  const slots = parts.filaments.length;
  checkFilamentCount(parts.printerId, config, slots);

  for (const [key, def] of Object.entries(SETTINGS) as Array<[string, SettingDef]>) {
    if (def.kind !== 'filament') continue;
    config[key] = def.perExtruder
      ? parts.filaments.map((f) => firstValue((f as Record<string, unknown>)[key]) ?? (def.default as unknown[])[0])
      : structuredClone((parts.filaments[0] as Record<string, unknown>)[key] ?? def.default);
  }

  const overridden = new Set<string>();
  for (const [key, raw] of Object.entries(parts.overrides ?? {})) {
    config[key] = parseSetting(key, raw);
    overridden.add(key);
  }

  for (const [key, def] of Object.entries(SETTINGS) as Array<[string, SettingDef]>) {
    if (def.perExtruder) config[key] = fitToSlots(key, config[key] as unknown[], slots, overridden.has(key));
  }
  for (const key of PER_EXTRUDER_POINT_KEYS) {
    config[key] = fitToSlots(key, config[key] as unknown[], slots, overridden.has(key));
  }
  return config as unknown as PrintConfig;
}

function checkFilamentCount(printerId: string, config: Record<string, unknown>, slots: number): void {
  const nozzles = (config.nozzle_diameter as number[]).length;
  const sharedNozzle = config.single_extruder_multi_material === true;
  if (slots === 0) {
    throw new AppError(ErrorCode.badRequest, 400, 'at least one filament profile is required');
  }
  if (nozzles > 1 && !sharedNozzle) {
    if (slots !== nozzles) {
      throw new AppError(
        ErrorCode.badRequest,
        400,
        `printer "${printerId}" has ${nozzles} nozzles: give exactly ${nozzles} filament profiles, got ${slots}`,
        { printerId, nozzles, filaments: slots },
      );
    }
    return;
  }
  const maxFilaments = config.max_filaments as number;
  if (slots > maxFilaments) {
    throw new AppError(ErrorCode.badRequest, 400, `printer "${printerId}" takes 1 to ${maxFilaments} filaments, got ${slots}`, {
      printerId,
      maxFilaments,
      filaments: slots,
    });
  }
}

function firstValue(value: unknown): unknown {
  return Array.isArray(value) ? structuredClone(value[0]) : value;
}

/** Repeats the last value up to `slots`; extra values are trimmed unless the job asked for them. */
function fitToSlots(key: string, values: unknown[], slots: number, fromOverride: boolean): unknown[] {
  if (values.length === slots) return values;
  if (values.length > slots) {
    if (fromOverride) {
      throw new AppError(
        ErrorCode.invalidSetting,
        400,
        `invalid value for setting "${key}": ${values.length} values given for ${slots} filament slot(s)`,
        { key },
      );
    }
    return values.slice(0, slots);
  }
  const out = values.slice();
  const last = values.length > 0 ? values[values.length - 1] : (SETTINGS[key as keyof typeof SETTINGS].default as unknown[])[0];
  while (out.length < slots) out.push(structuredClone(last));
  return out;
}
