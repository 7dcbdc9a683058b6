/**
 * The filled shapes of a whole SVG document: `<path>`, `<polygon>`, `<polyline>`, `<rect>` (with
 * rounded corners), `<circle>` and `<ellipse>`, each with its `transform` and those of the `<g>`
 * groups around it, in user units and SVG axes (y down). Each shape is turned into path data and
 * flattened by svg-path.ts; shapes with `fill="none"` (drawn by their stroke only) and anything
 * inside `<defs>`, `<clipPath>`, `<mask>`, `<symbol>`, `<pattern>` or `<marker>` (not drawn
 * where it stands) are left out. The markup is read by a small tag scanner: the elements used here
 * need no more of XML than their attributes.
 */
import { flattenPath, PathSyntaxError, type Point } from './svg-path.js';

/** x' = a·x + c·y + e, y' = b·x + d·y + f, as SVG writes it. */
type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const HIDDEN = new Set(['defs', 'clippath', 'mask', 'symbol', 'pattern', 'marker']);
const TAG = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[?!][^>]*>|<(\/?)([A-Za-z][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g;

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

const numbers = (text: string): number[] => (text.match(NUMBER) ?? []).map(Number);

/** A `transform` attribute: its functions composed left to right. */
export function parseTransform(text: string): Matrix {
  let matrix = IDENTITY;
  for (const [, name, args] of text.matchAll(/(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)/g)) {
    const v = numbers(args);
    const radians = ((v[0] ?? 0) * Math.PI) / 180;
    let step: Matrix;
    if (name === 'matrix' && v.length === 6) step = v as Matrix;
    else if (name === 'translate') step = [1, 0, 0, 1, v[0] ?? 0, v[1] ?? 0];
    else if (name === 'scale') step = [v[0] ?? 1, 0, 0, v[1] ?? v[0] ?? 1, 0, 0];
    else if (name === 'rotate') {
      const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
      const [cx, cy] = [v[1] ?? 0, v[2] ?? 0];
      step = [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy];
    } else if (name === 'skewX') step = [1, 0, Math.tan(radians), 1, 0, 0];
    else if (name === 'skewY') step = [1, Math.tan(radians), 0, 1, 0, 0];
    else throw new PathSyntaxError(`transform: ${name}() needs 6 numbers`);
    matrix = multiply(matrix, step);
  }
  return matrix;
}

function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name, double, single] of text.matchAll(ATTRIBUTE)) found.set(name.toLowerCase(), double ?? single);
  return found;
}

/** Path data for a shape element, or null for an element that is not a filled shape. */
function shapePath(tag: string, a: Map<string, string>): string | null {
  const n = (name: string) => Number.parseFloat(a.get(name) ?? '0') || 0;
  if (tag === 'path') return a.get('d') ?? '';
  if (tag === 'polygon' || tag === 'polyline') {
    const v = numbers(a.get('points') ?? '');
    const pairs = Array.from({ length: Math.floor(v.length / 2) }, (_, k) => `${v[2 * k]} ${v[2 * k + 1]}`);
    return pairs.length > 0 ? `M${pairs.join(' L')}Z` : '';
  }
  if (tag === 'circle' || tag === 'ellipse') {
    const [cx, cy] = [n('cx'), n('cy')];
    const [rx, ry] = tag === 'circle' ? [n('r'), n('r')] : [n('rx'), n('ry')];
    if (rx <= 0 || ry <= 0) return '';
    return `M${cx - rx} ${cy}A${rx} ${ry} 0 1 0 ${cx + rx} ${cy}A${rx} ${ry} 0 1 0 ${cx - rx} ${cy}Z`;
  }
  if (tag === 'rect') {
    const [x, y, w, h] = [n('x'), n('y'), n('width'), n('height')];
    if (w <= 0 || h <= 0) return '';
    // SVG: a missing rx or ry takes the other's value; each is at most half the side.
    const rx = Math.min(w / 2, a.has('rx') ? n('rx') : n('ry'));
    const ry = Math.min(h / 2, a.has('ry') ? n('ry') : n('rx'));
    if (rx <= 0 || ry <= 0) return `M${x} ${y}h${w}v${h}h${-w}Z`;
    const arc = (dx: number, dy: number) => `a${rx} ${ry} 0 0 1 ${dx} ${dy}`;
    return `M${x + rx} ${y}h${w - 2 * rx}${arc(rx, ry)}v${h - 2 * ry}${arc(-rx, ry)}h${2 * rx - w}${arc(-rx, -ry)}v${2 * ry - h}${arc(rx, -ry)}Z`;
  }
  return null;
}

function filled(a: Map<string, string>): boolean {
  const style = /(?:^|;)\s*fill\s*:\s*([^;]+)/.exec(a.get('style') ?? '')?.[1]?.trim();
  return (style ?? a.get('fill')?.trim()) !== 'none';
}

/** How much a matrix can stretch a length, so curves are flattened finely enough after it. */
function stretch(m: Matrix): number {
  return Math.max(Math.hypot(m[0], m[1]), Math.hypot(m[2], m[3]), 1e-9);
}

/**
 * Each filled shape's polygons (user units, y down, transforms applied): shapes are filled each
 * by the fill rule and then united, as SVG paints them. Curves are within `tolerance` after the
 * transforms.
 */
export function svgDocumentShapes(svg: string, tolerance: number): Point[][][] {
  const shapes: Point[][][] = [];
  const groups: Matrix[] = [IDENTITY];
  let hidden = 0;
  for (const [, closing, rawTag, rawAttributes, selfClosing] of svg.matchAll(TAG)) {
    if (rawTag === undefined) continue;
    const tag = rawTag.toLowerCase().replace(/^svg:/, '');
    if (closing) {
      if (HIDDEN.has(tag)) hidden = Math.max(0, hidden - 1);
      else if ((tag === 'g' || tag === 'svg') && groups.length > 1) groups.pop();
      continue;
    }
    const a = attributes(rawAttributes);
    const matrix = multiply(groups.at(-1) ?? IDENTITY, parseTransform(a.get('transform') ?? ''));
    if (HIDDEN.has(tag)) {
      if (!selfClosing) hidden++;
      continue;
    }
    if (tag === 'g' || tag === 'svg') {
      if (!selfClosing) groups.push(matrix);
      continue;
    }
    const d = shapePath(tag, a);
    if (d === null || hidden > 0 || !filled(a)) continue;
    let polygons: Point[][];
    try {
      polygons = flattenPath(d, tolerance / stretch(matrix));
    } catch (err) {
      if (err instanceof PathSyntaxError) throw new PathSyntaxError(`<${tag}> number ${shapes.length + 1}: ${err.message}`);
      throw err;
    }
    const placed = polygons.map((polygon) =>
      polygon.map(([x, y]): Point => [matrix[0] * x + matrix[2] * y + matrix[4], matrix[1] * x + matrix[3] * y + matrix[5]]),
    );
    if (placed.length > 0) shapes.push(placed);
  }
  return shapes;
}
