/** Numbers as the cards show them, through the texts module. */
import { t } from '../texts';

export function duration(seconds: number): string {
  const minutes = Math.max(0, Math.round(seconds / 60));
  return t.duration(Math.floor(minutes / 60), minutes % 60);
}

/** `#RRGGBBAA` (the printers' form) as CSS takes it; null for anything else, so nothing unchecked reaches a style. */
export function cssColor(color: string | null): string | null {
  return color !== null && /^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(color) ? color : null;
}

/** The colour for people: `#RRGGBB` without the alpha. */
export function colorName(color: string | null): string {
  return cssColor(color)?.slice(0, 7).toUpperCase() ?? '';
}
