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

/** A swatch's style: its background in the colour, none when the colour is not `#RRGGBB[AA]`. */
export function swatchStyle(color: string | null): { backgroundColor: string } | undefined {
  const css = cssColor(color);
  return css === null ? undefined : { backgroundColor: css };
}

/** The colour for people: `#RRGGBB` without the alpha. */
export function colorName(color: string | null): string {
  return cssColor(color)?.slice(0, 7).toUpperCase() ?? '';
}

/** Tools first (by number), then the bed, then the chamber. */
export function heaterOrder(name: string): number {
  if (name.startsWith('tool')) return Number(name.slice(4)) || 0;
  return name === 'bed' ? 100 : 200;
}

/** `tool0` is the nozzle; more tools are numbered. */
export function heaterLabel(name: string): string {
  if (name === 'bed') return t.printer.bed;
  if (name === 'chamber') return t.printer.chamber;
  if (name === 'tool0') return t.printer.nozzle;
  const tool = /^tool(\d+)$/.exec(name);
  return tool ? t.printer.tool(Number(tool[1])) : name;
}

/** "Bambu Lab, LAN" already names the maker; a model adds to it ("Bambu Lab P1S · Bambu Lab, LAN"). */
export function kindOf(vendor: string | null, model: string | null, type: string): string {
  const maker = [vendor, model].filter(Boolean).join(' ');
  const typeName = t.printer.types[type] ?? type;
  return maker === '' || typeName.startsWith(maker) ? typeName : `${maker} · ${typeName}`;
}
