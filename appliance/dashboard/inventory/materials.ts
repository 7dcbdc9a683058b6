/**
 * Defaults for a spool created without them: densities of the common materials (g/cm³, the
 * figures slicers and Spoolman's filament database use) and the usual diameter and net weight.
 */
const DENSITIES: Readonly<Record<string, number>> = {
  PLA: 1.24,
  'PLA+': 1.24,
  PETG: 1.27,
  PET: 1.38,
  ABS: 1.04,
  ASA: 1.07,
  TPU: 1.21,
  PA: 1.14,
  NYLON: 1.14,
  PC: 1.2,
  PVA: 1.23,
  HIPS: 1.04,
  PP: 0.9,
};

export const DEFAULT_DENSITY = 1.24;
export const DEFAULT_DIAMETER_MM = 1.75;
export const DEFAULT_INITIAL_WEIGHT_G = 1000;

/** The density of a material by name (`PLA`, `PETG-CF` → PETG's), or PLA's when unknown. */
export function defaultDensity(material: string | null): number {
  if (material === null) return DEFAULT_DENSITY;
  const upper = material.trim().toUpperCase();
  return DENSITIES[upper] ?? DENSITIES[upper.split(/[-\s+]/)[0]] ?? DEFAULT_DENSITY;
}

/** `#ff0000`, `FF0000`, `ff0000aa` → Spoolman's `FF0000` / `FF0000AA`; null when it is not a colour. */
export function storedColor(text: string): string | null {
  const hex = text.trim().replace(/^#/, '').toUpperCase();
  return /^([0-9A-F]{6}|[0-9A-F]{8})$/.test(hex) ? hex : null;
}

/** Spoolman's stored colour → the view's `#rrggbb` (the alpha channel is dropped). */
export function viewColor(stored: string | null): string | null {
  return stored === null ? null : `#${stored.slice(0, 6).toLowerCase()}`;
}
