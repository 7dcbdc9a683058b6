/**
 * Settings that change with height, as calibration prints need them (a temperature tower's
 * blocks, a retraction test's bands): each change takes effect at the first layer that starts at
 * or above its `z_from`, and holds until the next change of the same setting. A nozzle
 * temperature change writes `M104` at that layer; a retraction length or speed change applies to
 * every retraction (and its deretraction) from that layer on, over the profile's value. Under
 * firmware retraction (G10/G11 carry no length) the firmware is told instead at that layer:
 * `M207`/`M208` (Marlin), `M207` with its T for the deretraction (RepRapFirmware, where M208 sets
 * axis limits) or `SET_RETRACTION` (Klipper).
 */

export const HEIGHT_CHANGE_SETTINGS = ['nozzle_temperature', 'retraction_length', 'retraction_speed'] as const;
export type HeightChangeSetting = (typeof HEIGHT_CHANGE_SETTINGS)[number];

export interface HeightChange {
  /** Height in mm where the value starts (the bottom of the first layer it applies to). */
  z_from: number;
  setting: HeightChangeSetting;
  /** °C, mm or mm/s. */
  value: number;
}

export const MAX_HEIGHT_CHANGES = 256;
/** What each setting may be set to; beyond is a mistake rather than a calibration. */
const BOUNDS: Record<HeightChangeSetting, [number, number]> = {
  nozzle_temperature: [0, 500],
  retraction_length: [0, 50],
  retraction_speed: [1, 500],
};
/** Layers start where the one below ended, give or take float rounding. */
const Z_EPSILON = 1e-6;

/** Why a list is not a list of height changes (naming the item), or null. */
export function heightChangesProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'must be a JSON array of {z_from, setting, value}';
  if (value.length > MAX_HEIGHT_CHANGES) return `at most ${MAX_HEIGHT_CHANGES} changes`;
  for (const [i, item] of value.entries()) {
    const change = item as Partial<HeightChange> | null;
    if (change === null || typeof change !== 'object' || Array.isArray(change)) return `item ${i} must be an object`;
    const extra = Object.keys(change).find((key) => !['z_from', 'setting', 'value'].includes(key));
    if (extra) return `item ${i} has an unknown key "${extra}"`;
    if (typeof change.z_from !== 'number' || !Number.isFinite(change.z_from) || change.z_from < 0) return `item ${i}: z_from must be a number ≥ 0`;
    if (!HEIGHT_CHANGE_SETTINGS.includes(change.setting as HeightChangeSetting)) {
      return `item ${i}: setting must be one of ${HEIGHT_CHANGE_SETTINGS.join(', ')}`;
    }
    const [min, max] = BOUNDS[change.setting as HeightChangeSetting];
    if (typeof change.value !== 'number' || !(change.value >= min && change.value <= max)) {
      return `item ${i}: ${change.setting} must be a number from ${min} to ${max}`;
    }
  }
  return null;
}

/** How the firmware's own retraction is set, when G10/G11 retract: null when the G-code retracts itself. */
export type FirmwareRetraction = 'marlin' | 'reprapfirmware' | 'klipper' | null;

export function firmwareRetraction(useFirmwareRetraction: boolean, flavour: string): FirmwareRetraction {
  if (!useFirmwareRetraction) return null;
  if (flavour === 'klipper' || flavour === 'reprapfirmware') return flavour;
  return 'marlin';
}

/** The lines that give the firmware a new retraction length and/or speed (mm, mm/s). */
function firmwareRetractionLines(firmware: Exclude<FirmwareRetraction, null>, length: number | null, speed: number | null): string[] {
  const lengthPart = (name: string) => (length === null ? '' : ` ${name}${length}`);
  if (firmware === 'klipper') {
    const speedPart = speed === null ? '' : ` RETRACT_SPEED=${speed} UNRETRACT_SPEED=${speed}`;
    return [`SET_RETRACTION${lengthPart('RETRACT_LENGTH=')}${speedPart}`];
  }
  const feed = speed === null ? '' : ` F${Math.round(speed * 60)}`;
  if (firmware === 'reprapfirmware') {
    const unretract = speed === null ? '' : ` T${Math.round(speed * 60)}`;
    return [`M207${lengthPart('S')}${feed}${unretract} ; firmware retraction`];
  }
  const lines = [`M207${lengthPart('S')}${feed} ; firmware retraction`];
  if (speed !== null) lines.push(`M208${feed} ; firmware deretraction`);
  return lines;
}

/** The changes in force as the writer goes up, layer by layer. */
export class HeightChangeState {
  private readonly pending: HeightChange[];
  private readonly current = new Map<HeightChangeSetting, number>();

  constructor(
    changes: readonly HeightChange[],
    private readonly firmware: FirmwareRetraction = null,
  ) {
    // Stable sort: of two changes at one height, the later in the request wins.
    this.pending = [...changes].sort((a, b) => a.z_from - b.z_from);
  }

  /** Takes up the changes that start at or below this layer's bottom; answers the G-code lines they need now. */
  enterLayer(bottomZ: number): string[] {
    const before = new Map(this.current);
    while (this.pending.length > 0 && this.pending[0].z_from <= bottomZ + Z_EPSILON) {
      const change = this.pending.shift() as HeightChange;
      this.current.set(change.setting, change.value);
    }
    const changed = (setting: HeightChangeSetting): number | null => {
      const value = this.current.get(setting);
      return value === undefined || value === before.get(setting) ? null : value;
    };
    const lines: string[] = [];
    const temperature = changed('nozzle_temperature');
    if (temperature !== null) lines.push(`M104 S${Math.round(temperature)} ; nozzle temperature from z ${bottomZ.toFixed(2)}`);
    const length = changed('retraction_length');
    const speed = changed('retraction_speed');
    if (this.firmware !== null && (length !== null || speed !== null)) lines.push(...firmwareRetractionLines(this.firmware, length, speed));
    return lines;
  }

  /** The value in force for a setting, or null where the profile's applies. */
  value(setting: HeightChangeSetting): number | null {
    return this.current.get(setting) ?? null;
  }
}
