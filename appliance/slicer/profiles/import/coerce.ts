/**
 * Bringing a foreign value into our schema. Importers keep what they can: a number outside our
 * range is clamped, an enum value we lack becomes the nearest one we have, each with a warning;
 * only a value with no sensible reading is dropped.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { SETTINGS, isSettingKey, parseSetting, type SettingDef, type SettingKey } from '../schema.js';

/** Enum values other slicers offer that we do not, mapped to the closest behaviour we have. */
const NEAREST_ENUM: Partial<Record<SettingKey, Readonly<Record<string, string>>>> = {
  sparse_infill_pattern: {
    cubic: 'triangles',
    adaptivecubic: 'triangles',
    supportcubic: 'triangles',
    quartercubic: 'triangles',
    stars: 'triangles',
    honeycomb: 'triangles',
    'tri-hexagon': 'triangles',
    '3dhoneycomb': 'gyroid',
    lightning: 'line',
    concentric: 'line',
    hilbertcurve: 'zig-zag',
    archimedeanchords: 'zig-zag',
    octagramspiral: 'zig-zag',
    crosshatch: 'grid',
    zigzag: 'zig-zag',
    crosszag: 'grid',
    lockedzag: 'grid',
    monotonic: 'zig-zag',
    monotonicline: 'line',
  },
  top_surface_pattern: {
    hilbertcurve: 'zig-zag',
    archimedeanchords: 'concentric',
    octagramspiral: 'concentric',
    line: 'monotonicline',
    grid: 'zig-zag',
  },
  bottom_surface_pattern: {
    hilbertcurve: 'zig-zag',
    archimedeanchords: 'concentric',
    octagramspiral: 'concentric',
    line: 'monotonicline',
    grid: 'zig-zag',
  },
  internal_solid_infill_pattern: {
    hilbertcurve: 'zig-zag',
    archimedeanchords: 'concentric',
    octagramspiral: 'concentric',
    line: 'monotonicline',
    grid: 'zig-zag',
  },
  support_base_pattern: { honeycomb: 'rectilinear', lightning: 'rectilinear', hollow: 'rectilinear', rectilinear_grid: 'rectilinear-grid' },
  gcode_flavor: { sailfish: 'marlin', makerware: 'marlin', mach3: 'marlin', machinekit: 'marlin', teacup: 'marlin', 'no-extrusion': 'marlin' },
  curr_bed_type: { 'textured cool plate': 'Cool Plate', 'supertack plate': 'Cool Plate' },
  ensure_vertical_shell_thickness: { ensure_critical_only: 'ensure_moderate' },
};

export type Warn = (message: string) => void;

function isNumericType(def: SettingDef): boolean {
  return def.type === 'float' || def.type === 'int' || def.type === 'percent';
}

function nearestEnumValue(key: SettingKey, def: SettingDef, raw: string): string | undefined {
  const table = NEAREST_ENUM[key];
  const mapped = table?.[raw.toLowerCase()];
  if (mapped !== undefined) return mapped;
  const values = def.values ?? [];
  const caseless = values.find((v) => v.toLowerCase() === raw.toLowerCase());
  if (caseless !== undefined) return caseless;
  if (key === 'filament_type') {
    // Vendors qualify a base material ("PLA-S", "PETG HF", "TPU95A"); the base is what matters here.
    const upper = raw.toUpperCase();
    for (const base of [upper.split(/[\s+\-/]/)[0] ?? '', /^[A-Z]+/.exec(upper)?.[0] ?? '']) {
      const aliased = def.aliases?.[base] ?? base;
      if (values.includes(aliased)) return aliased;
    }
    return 'OTHER';
  }
  return undefined;
}

function clampNumber(def: SettingDef, n: number): number {
  let out = n;
  if (def.min !== undefined && out < def.min) out = def.min;
  if (def.max !== undefined && out > def.max) out = def.max;
  return def.type === 'int' ? Math.round(out) : out;
}

/** Elements of a raw value as our parser would split them. */
function elements(def: SettingDef, raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (def.perExtruder && typeof raw === 'string' && def.type !== 'gcode' && def.type !== 'string') return raw.split(',');
  return [raw];
}

function repair(key: SettingKey, def: SettingDef, raw: unknown, warn: Warn): unknown | undefined {
  const items = elements(def, raw);
  if (isNumericType(def)) {
    const numbers = items.map((item) => (typeof item === 'string' ? Number(item.trim().replace(/%$/, '')) : item));
    if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
    const clamped = (numbers as number[]).map((n) => clampNumber(def, n));
    warn(`"${key}": ${items.join(',')} is outside ${def.min ?? '-∞'}..${def.max ?? '∞'}; using ${clamped.join(',')}`);
    return parseSetting(key, def.perExtruder ? clamped : clamped[0]);
  }
  if (def.type === 'enum') {
    if (!items.every((item) => typeof item === 'string')) return undefined;
    const mapped = (items as string[]).map((item) => nearestEnumValue(key, def, item.trim()));
    if (mapped.some((m) => m === undefined)) return undefined;
    warn(`"${key}": ${items.join(',')} is not supported; using the nearest, ${mapped.join(',')}`);
    return parseSetting(key, def.perExtruder ? mapped : mapped[0]);
  }
  return undefined;
}

/**
 * Parses `raw` for `key`, repairing what can be repaired. Returns undefined (after a warning) when
 * the value has to be dropped. Multi-valued machine limits (normal, silent) keep the first value.
 */
export function coerceSetting(key: SettingKey, raw: unknown, warn: Warn): unknown | undefined {
  if (!isSettingKey(key)) return parseSetting(key, raw);
  const def: SettingDef = SETTINGS[key];
  // An empty number or choice is how both slicers write "not set": leave the key to the parent.
  if (raw === '' && def.type !== 'string' && def.type !== 'gcode' && def.type !== 'points') return undefined;
  let value = raw;
  if (!def.perExtruder && def.type !== 'points' && def.type !== 'strings') {
    if (Array.isArray(value)) value = value[0];
    else if (typeof value === 'string' && isNumericType(def) && value.includes(',')) value = value.split(',')[0];
  }
  try {
    return parseSetting(key, value);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== ErrorCode.invalidSetting) throw err;
    const repaired = repair(key, def, value, warn);
    if (repaired === undefined) warn(`${err.message}; setting dropped`);
    return repaired;
  }
}
