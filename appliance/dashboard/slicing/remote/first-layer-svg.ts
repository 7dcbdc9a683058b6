/**
 * Draws a first layer (first-layer.ts) as SVG: one polyline per extrusion path, its stroke as
 * wide as the extrusion, coloured by feature type with PrusaSlicer's preview colours (OrcaSlicer,
 * Bambu Studio and Cura names mapped onto them), seen from above (G-code Y points up, SVG y
 * down). Units are millimetres; the picture is cropped to the layer plus a small margin. Each
 * feature type is a group with `data-type`, so a page can style or toggle it.
 */
import type { FirstLayer } from './first-layer.js';

const MARGIN_MM = 2;

/** Colour by lower-cased type name. */
const COLOURS: Record<string, string> = {
  'external perimeter': '#ff7d38',
  'outer wall': '#ff7d38',
  'wall-outer': '#ff7d38',
  perimeter: '#ffe64d',
  'inner wall': '#ffe64d',
  'wall-inner': '#ffe64d',
  'overhang perimeter': '#1f1fff',
  'overhang wall': '#1f1fff',
  'internal infill': '#b03029',
  'sparse infill': '#b03029',
  fill: '#b03029',
  'solid infill': '#9654cc',
  'internal solid infill': '#9654cc',
  skin: '#9654cc',
  'top solid infill': '#f04040',
  'top surface': '#f04040',
  'bottom surface': '#9654cc',
  ironing: '#ff8c69',
  'bridge infill': '#4d80ba',
  bridge: '#4d80ba',
  'internal bridge': '#4d80ba',
  'gap fill': '#a0a0a0',
  'gap infill': '#a0a0a0',
  'skirt/brim': '#00876e',
  skirt: '#00876e',
  brim: '#00876e',
  'support material': '#00ff00',
  support: '#00ff00',
  'support material interface': '#008000',
  'support interface': '#008000',
  'wipe tower': '#b3e3ab',
  'prime tower': '#b3e3ab',
  custom: '#5ed194',
};
const UNKNOWN_COLOUR = '#888888';

export function colourOf(type: string): string {
  return COLOURS[type.toLowerCase()] ?? UNKNOWN_COLOUR;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const num = (n: number): string => String(Math.round(n * 1000) / 1000);

export function firstLayerSvg(layer: FirstLayer, title: string): string {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const path of layer.paths) {
    for (const [x, y] of path.points) {
      minX = Math.min(minX, x - path.width / 2);
      maxX = Math.max(maxX, x + path.width / 2);
      minY = Math.min(minY, y - path.width / 2);
      maxY = Math.max(maxY, y + path.width / 2);
    }
  }
  if (!Number.isFinite(minX)) [minX, minY, maxX, maxY] = [0, 0, 0, 0];
  minX -= MARGIN_MM;
  minY -= MARGIN_MM;
  maxX += MARGIN_MM;
  maxY += MARGIN_MM;
  const width = maxX - minX;
  const height = maxY - minY;

  const byType = new Map<string, string[]>();
  for (const path of layer.paths) {
    const points = path.points.map(([x, y]) => `${num(x - minX)},${num(maxY - y)}`).join(' ');
    const lines = byType.get(path.type) ?? [];
    lines.push(`<polyline stroke-width="${num(path.width)}" points="${points}"/>`);
    byType.set(path.type, lines);
  }
  const groups = [...byType].map(([type, lines]) => `<g data-type="${escapeXml(type)}" stroke="${colourOf(type)}">\n${lines.join('\n')}\n</g>`);
  const z = layer.z === null ? '' : ` data-z="${num(layer.z)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}mm" height="${num(height)}mm" viewBox="0 0 ${num(width)} ${num(height)}"${z}>`,
    `<title>${escapeXml(title)}</title>`,
    '<g fill="none" stroke-linecap="round" stroke-linejoin="round">',
    ...groups,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
