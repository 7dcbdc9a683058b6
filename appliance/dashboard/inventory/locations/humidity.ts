/**
 * How dry each material must be stored: the highest relative humidity (%RH) a spool of it should
 * sit in for weeks without picking up enough water to print badly (stringing, bubbles, brittle
 * parts). The figures are the conservative end of what filament makers and drying guides give; a
 * location's own `humidity_limit_pct` replaces them when the owner knows better.
 *
 * A location's limit is the strictest of the materials stored there. Material names are matched by
 * family: `PLA+`, `PLA-CF` and `Silk PLA` count as PLA, `PA6-CF` and `Nylon` as PA, `PCTG` as PETG.
 */

export interface MaterialLimit {
  family: string;
  /** Other names and words that mean this family. */
  aliases: readonly string[];
  max_rh_pct: number;
}

export const MATERIAL_LIMITS: readonly MaterialLimit[] = [
  { family: 'PLA', aliases: [], max_rh_pct: 50 },
  { family: 'PETG', aliases: ['PET', 'PCTG'], max_rh_pct: 40 },
  { family: 'ABS', aliases: [], max_rh_pct: 40 },
  { family: 'ASA', aliases: [], max_rh_pct: 40 },
  { family: 'HIPS', aliases: [], max_rh_pct: 40 },
  { family: 'TPU', aliases: ['TPE', 'FLEX'], max_rh_pct: 30 },
  { family: 'PA', aliases: ['NYLON', 'PAHT', 'PA6', 'PA11', 'PA12', 'PA66'], max_rh_pct: 20 },
  { family: 'PC', aliases: ['POLYCARBONATE'], max_rh_pct: 20 },
  { family: 'PVA', aliases: ['BVOH'], max_rh_pct: 15 },
];

/** A material the table does not know is held to this limit: dry enough for most. */
export const UNKNOWN_MATERIAL_LIMIT_PCT = 40;

/**
 * An excursion ends only when the humidity falls this many points below the limit, so a reading
 * that wobbles around the limit does not start a new excursion (and a new notification) each time.
 */
export const HYSTERESIS_PCT = 5;

const BY_NAME = new Map<string, MaterialLimit>(MATERIAL_LIMITS.flatMap((m) => [m.family, ...m.aliases].map((name) => [name, m] as const)));

/** The table's row for a material name, or null when no word of it names a known family. */
export function materialLimit(material: string): MaterialLimit | null {
  const words = material
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  for (const word of words) {
    const found = BY_NAME.get(word) ?? BY_NAME.get(word.replace(/\d+$/, ''));
    if (found !== undefined) return found;
  }
  return null;
}

export interface HumidityLimit {
  limit_pct: number;
  /** `override`: the location's own limit; `material`: the strictest material stored there. */
  source: 'override' | 'material';
  /** The material that sets the limit (as a spool names it), null for an override. */
  material: string | null;
}

/** The limit of a location holding `materials`, or null when it holds none and has no override. */
export function humidityLimit(override: number | null, materials: readonly string[]): HumidityLimit | null {
  if (override !== null) return { limit_pct: override, source: 'override', material: null };
  let strictest: HumidityLimit | null = null;
  for (const material of materials) {
    const limit = materialLimit(material)?.max_rh_pct ?? UNKNOWN_MATERIAL_LIMIT_PCT;
    if (strictest === null || limit < strictest.limit_pct) strictest = { limit_pct: limit, source: 'material', material };
  }
  return strictest;
}
