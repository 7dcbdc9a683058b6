/**
 * An SVG path's `d` (SVG 1.1 §8.3: M L H V C S Q T A Z, absolute and relative, repeated arguments,
 * numbers run together as in "1.5.5" or "10-5", arc flags without separators) flattened to closed
 * polygons, one per subpath, in the path's own units and axes (y down). Curves become chords that
 * stay within `tolerance` of the curve: Béziers by a bound on their second derivative, arcs by
 * the sagitta of each step. An open subpath is closed, as a fill closes it.
 */
export type Point = [number, number];

/** A `d` that does not follow the grammar; the message names the place. */
export class PathSyntaxError extends Error {}

/** At most this many chords per curve, however tight the tolerance. */
const MAX_STEPS = 512;
const NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const ARGUMENTS: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };

class Scanner {
  at = 0;
  constructor(private readonly text: string) {}

  private skip(): void {
    while (this.at < this.text.length && /[\s,]/.test(this.text[this.at])) this.at++;
  }

  done(): boolean {
    this.skip();
    return this.at >= this.text.length;
  }

  command(): string | null {
    this.skip();
    const c = this.text[this.at];
    if (c === undefined || !/[A-Za-z]/.test(c)) return null;
    if (!(c.toLowerCase() in ARGUMENTS)) throw new PathSyntaxError(`unknown path command "${c}" at character ${this.at}`);
    this.at++;
    return c;
  }

  number(): number {
    this.skip();
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) throw new PathSyntaxError(`a number was expected at character ${this.at}`);
    this.at += match[0].length;
    return Number(match[0]);
  }

  flag(): boolean {
    this.skip();
    const c = this.text[this.at];
    if (c !== '0' && c !== '1') throw new PathSyntaxError(`an arc flag (0 or 1) was expected at character ${this.at}`);
    this.at++;
    return c === '1';
  }
}

function steps(deviationBound: number, tolerance: number): number {
  return Math.min(MAX_STEPS, Math.max(1, Math.ceil(Math.sqrt(deviationBound / tolerance))));
}

function cubic(out: Point[], p0: Point, p1: Point, p2: Point, p3: Point, tolerance: number): void {
  // |B''| <= 6·max|Δ²P|; a chord of a parameter step h is within |B''|·h²/8 of the curve.
  const second = Math.max(
    Math.hypot(p0[0] - 2 * p1[0] + p2[0], p0[1] - 2 * p1[1] + p2[1]),
    Math.hypot(p1[0] - 2 * p2[0] + p3[0], p1[1] - 2 * p2[1] + p3[1]),
  );
  const n = steps((6 * second) / 8, tolerance);
  for (let k = 1; k <= n; k++) {
    const t = k / n;
    const u = 1 - t;
    const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
    out.push([a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]]);
  }
}

function quadratic(out: Point[], p0: Point, p1: Point, p2: Point, tolerance: number): void {
  const n = steps((2 * Math.hypot(p0[0] - 2 * p1[0] + p2[0], p0[1] - 2 * p1[1] + p2[1])) / 8, tolerance);
  for (let k = 1; k <= n; k++) {
    const t = k / n;
    const u = 1 - t;
    out.push([u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0], u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1]]);
  }
}

/** An elliptical arc from its endpoint form (SVG 1.1 appendix F.6.5, with F.6.6's radius correction). */
function arc(out: Point[], from: Point, radii: Point, rotationDeg: number, large: boolean, sweep: boolean, to: Point, tolerance: number): void {
  let [rx, ry] = [Math.abs(radii[0]), Math.abs(radii[1])];
  if (from[0] === to[0] && from[1] === to[1]) return;
  if (rx === 0 || ry === 0) {
    out.push(to);
    return;
  }
  const phi = (rotationDeg * Math.PI) / 180;
  const [cos, sin] = [Math.cos(phi), Math.sin(phi)];
  const dx = (from[0] - to[0]) / 2;
  const dy = (from[1] - to[1]) / 2;
  const x1 = cos * dx + sin * dy;
  const y1 = -sin * dx + cos * dy;
  const lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
  if (lambda > 1) [rx, ry] = [rx * Math.sqrt(lambda), ry * Math.sqrt(lambda)];
  const numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
  const denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1;
  const coefficient = (large !== sweep ? 1 : -1) * Math.sqrt(Math.max(0, numerator / denominator));
  const cx1 = (coefficient * rx * y1) / ry;
  const cy1 = (-coefficient * ry * x1) / rx;
  const cx = cos * cx1 - sin * cy1 + (from[0] + to[0]) / 2;
  const cy = sin * cx1 + cos * cy1 + (from[1] + to[1]) / 2;
  const angle = (ux: number, uy: number, vx: number, vy: number) => Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const start = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry);
  let delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry);
  if (!sweep && delta > 0) delta -= 2 * Math.PI;
  if (sweep && delta < 0) delta += 2 * Math.PI;
  const radius = Math.max(rx, ry);
  const step = tolerance >= radius ? Math.PI / 2 : 2 * Math.acos(1 - tolerance / radius);
  const n = Math.min(MAX_STEPS, Math.max(1, Math.ceil(Math.abs(delta) / step)));
  for (let k = 1; k < n; k++) {
    const theta = start + (delta * k) / n;
    const [ex, ey] = [rx * Math.cos(theta), ry * Math.sin(theta)];
    out.push([cx + ex * cos - ey * sin, cy + ex * sin + ey * cos]);
  }
  out.push(to);
}

/** The polygon without a point equal to the one before it (nor a last point equal to the first). */
function withoutRepeats(points: Point[]): Point[] {
  const kept = points.filter((p, k) => k === 0 || p[0] !== points[k - 1][0] || p[1] !== points[k - 1][1]);
  while (kept.length > 1 && kept.at(-1)?.[0] === kept[0][0] && kept.at(-1)?.[1] === kept[0][1]) kept.pop();
  return kept;
}

/** The subpaths of `d` as closed polygons (the closing edge implied), each with at least three points. */
export function flattenPath(d: string, tolerance: number): Point[][] {
  const scan = new Scanner(d);
  const subpaths: Point[][] = [];
  let current: Point[] | null = null;
  let point: Point = [0, 0];
  let start: Point = [0, 0];
  /** The reflection source of S and T: the last control point of a C/S or Q/T just before. */
  let lastCubic: Point | null = null;
  let lastQuad: Point | null = null;
  let command: string | null = null;
  let started = false;
  const finish = () => {
    const polygon = current ? withoutRepeats(current) : [];
    if (polygon.length >= 3) subpaths.push(polygon);
    current = null;
  };
  const draw = (): Point[] => {
    current ??= [point];
    return current;
  };
  while (!scan.done()) {
    const letter = scan.command();
    if (letter) command = letter;
    else if (command === null || command === 'z' || command === 'Z') throw new PathSyntaxError(`a command was expected at character ${scan.at}`);
    if (command === null || (!started && command.toLowerCase() !== 'm')) throw new PathSyntaxError('a path starts with a moveto (M or m)');
    started = true;
    const relative: boolean = command === command.toLowerCase();
    const at = (x: number, y: number): Point => (relative ? [point[0] + x, point[1] + y] : [x, y]);
    const c = command.toLowerCase();
    /** S and T mirror the previous curve's last control point about the current point (or use the point itself). */
    const reflected = (last: Point | null): Point => (last ? [2 * point[0] - last[0], 2 * point[1] - last[1]] : point);
    let cubicControl: Point | null = null;
    let quadControl: Point | null = null;
    if (c === 'm') {
      finish();
      point = at(scan.number(), scan.number());
      start = point;
      current = [point];
      // Pairs after a moveto are linetos.
      command = relative ? 'l' : 'L';
    } else if (c === 'z') {
      finish();
      point = start;
    } else if (c === 'l') {
      point = at(scan.number(), scan.number());
      draw().push(point);
    } else if (c === 'h') {
      const x = scan.number();
      point = [relative ? point[0] + x : x, point[1]];
      draw().push(point);
    } else if (c === 'v') {
      const y = scan.number();
      point = [point[0], relative ? point[1] + y : y];
      draw().push(point);
    } else if (c === 'c' || c === 's') {
      const first: Point = c === 'c' ? at(scan.number(), scan.number()) : reflected(lastCubic);
      const second = at(scan.number(), scan.number());
      const end = at(scan.number(), scan.number());
      cubic(draw(), point, first, second, end, tolerance);
      [point, cubicControl] = [end, second];
    } else if (c === 'q' || c === 't') {
      const control: Point = c === 'q' ? at(scan.number(), scan.number()) : reflected(lastQuad);
      const end = at(scan.number(), scan.number());
      quadratic(draw(), point, control, end, tolerance);
      [point, quadControl] = [end, control];
    } else {
      const radii: Point = [scan.number(), scan.number()];
      const rotation = scan.number();
      const large = scan.flag();
      const sweep = scan.flag();
      const end = at(scan.number(), scan.number());
      arc(draw(), point, radii, rotation, large, sweep, end, tolerance);
      point = end;
    }
    [lastCubic, lastQuad] = [cubicControl, quadControl];
  }
  finish();
  return subpaths;
}
