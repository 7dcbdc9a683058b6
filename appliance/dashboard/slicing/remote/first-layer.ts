/**
 * The first layer of a G-code file as polylines of extrusion, each tagged with its feature type
 * (`;TYPE:` in PrusaSlicer, OrcaSlicer and our engine, `; FEATURE:` in Bambu Studio, `;TYPE:` in
 * Cura) and line width (`;WIDTH:`, `; LINE_WIDTH:`). Reading stops as soon as the layer is
 * complete, so a preview never reads a whole file.
 *
 * Which moves are the first layer:
 * - a file with layer markers (`;LAYER_CHANGE`, `; CHANGE_LAYER`, Cura's `;LAYER:n`): the
 *   extrusions between the first marker and the next one after them. Extrusions before the first
 *   marker are the start G-code (a prime line) and are left out.
 * - a file without markers: the extrusions at the height of the first extrusion, until one
 *   happens higher up.
 * Moves are G0/G1 and arcs (G2/G3 with I/J, drawn as short segments), in absolute or relative
 * coordinates (G90/G91, M82/M83 for E), with G92 resets. A move extrudes when E grows.
 */
export interface LayerPath {
  type: string;
  width: number;
  points: Array<[number, number]>;
}

export interface FirstLayer {
  /** Height of the layer, when known. */
  z: number | null;
  paths: LayerPath[];
}

const DEFAULT_WIDTH = 0.45;
const MARKER = /^;\s*(?:LAYER_CHANGE|CHANGE_LAYER)\b|^;LAYER:-?\d+\s*$/;
const TYPE = /^;\s*(?:TYPE|FEATURE):\s*(.+?)\s*$/;
const WIDTH = /^;\s*(?:WIDTH|LINE_WIDTH):\s*([\d.]+)/;
/** Longest chord of an arc drawn as segments, in mm. */
const ARC_STEP_MM = 0.5;

function words(code: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of code.matchAll(/([A-Z])\s*(-?\d*\.?\d+(?:e-?\d+)?)/gi)) out.set(m[1].toUpperCase(), Number(m[2]));
  return out;
}

class Reader {
  x = 0;
  y = 0;
  z = 0;
  e = 0;
  relXY = false;
  relE = false;
  type = 'Unknown';
  width = DEFAULT_WIDTH;
  markers = 0;
  /** Extrusions since the first marker (or since the start, in a file without markers). */
  layer: LayerPath[] = [];
  layerZ: number | null = null;
  /** Extrusions before any marker, by height, for a file that turns out to have none. */
  preMarker: LayerPath[] = [];
  preMarkerZ: number | null = null;
  done = false;

  line(raw: string): void {
    const line = raw.trim();
    if (line.startsWith(';')) {
      this.comment(line);
      return;
    }
    const code = line.split(';', 1)[0].trim().toUpperCase();
    if (code === '') return;
    const command = /^([GM]\d+)/.exec(code)?.[1];
    const args = words(code.slice(command?.length ?? 0));
    switch (command) {
      case 'G90':
        this.relXY = false;
        this.relE = false;
        break;
      case 'G91':
        this.relXY = true;
        this.relE = true;
        break;
      case 'M82':
        this.relE = false;
        break;
      case 'M83':
        this.relE = true;
        break;
      case 'G92':
        if (args.size === 0) {
          this.x = 0;
          this.y = 0;
          this.z = 0;
          this.e = 0;
        }
        this.x = args.get('X') ?? this.x;
        this.y = args.get('Y') ?? this.y;
        this.z = args.get('Z') ?? this.z;
        this.e = args.get('E') ?? this.e;
        break;
      case 'G0':
      case 'G1':
      case 'G00':
      case 'G01':
        this.move(args, null);
        break;
      case 'G2':
      case 'G3':
      case 'G02':
      case 'G03':
        this.move(args, command.endsWith('2') ? 'cw' : 'ccw');
        break;
      default:
        break;
    }
  }

  private comment(line: string): void {
    if (MARKER.test(line)) {
      this.markers++;
      // The marker that follows the first layer's extrusions ends it.
      if (this.markers > 1 && this.layer.length > 0) this.done = true;
      return;
    }
    const type = TYPE.exec(line);
    if (type) {
      this.type = type[1];
      return;
    }
    const width = WIDTH.exec(line);
    if (width && Number(width[1]) > 0) this.width = Number(width[1]);
  }

  private move(args: Map<string, number>, arc: 'cw' | 'ccw' | null): void {
    const from: [number, number] = [this.x, this.y];
    const axis = (name: 'X' | 'Y' | 'Z', current: number): number => {
      const value = args.get(name);
      if (value === undefined) return current;
      return this.relXY ? current + value : value;
    };
    this.x = axis('X', this.x);
    this.y = axis('Y', this.y);
    this.z = axis('Z', this.z);
    let extruded = false;
    const e = args.get('E');
    if (e !== undefined) {
      const next = this.relE ? this.e + e : e;
      extruded = next > this.e + 1e-9;
      this.e = next;
    }
    const to: [number, number] = [this.x, this.y];
    if (!extruded || (from[0] === to[0] && from[1] === to[1] && arc === null)) {
      this.breakPaths();
      return;
    }
    const points = arc === null ? [to] : arcPoints(from, to, [from[0] + (args.get('I') ?? 0), from[1] + (args.get('J') ?? 0)], arc);
    this.extrude(from, points);
  }

  private extrude(from: [number, number], points: Array<[number, number]>): void {
    if (this.markers === 0) {
      if (this.preMarkerZ === null) this.preMarkerZ = this.z;
      else if (this.z > this.preMarkerZ + 1e-6) {
        // No markers so far, and this extrusion is higher: the first layer is behind us.
        this.layer = this.preMarker;
        this.layerZ = this.preMarkerZ;
        this.done = true;
        return;
      }
      append(this.preMarker, this.type, this.width, from, points);
      return;
    }
    this.layerZ ??= this.z;
    append(this.layer, this.type, this.width, from, points);
  }

  private breakPaths(): void {
    const target = this.markers === 0 ? this.preMarker : this.layer;
    const last = target[target.length - 1];
    if (last && last.points.length > 0) target.push({ type: last.type, width: last.width, points: [] });
  }

  result(): FirstLayer {
    const layer = this.markers === 0 ? { paths: this.preMarker, z: this.preMarkerZ } : { paths: this.layer, z: this.layerZ };
    return { z: layer.z, paths: layer.paths.filter((p) => p.points.length > 1) };
  }
}

/** Continues the last polyline when it ends where this move starts with the same type and width. */
function append(paths: LayerPath[], type: string, width: number, from: [number, number], points: Array<[number, number]>): void {
  let last = paths[paths.length - 1];
  const end = last?.points[last.points.length - 1];
  const continues =
    last !== undefined && last.type === type && last.width === width && (end === undefined || (end[0] === from[0] && end[1] === from[1]));
  if (!continues) {
    last = { type, width, points: [] };
    paths.push(last);
  }
  if (last.points.length === 0) last.points.push(from);
  last.points.push(...points);
}

/** An arc from `from` to `to` around `center`, as points (the start left out). */
export function arcPoints(from: [number, number], to: [number, number], center: [number, number], direction: 'cw' | 'ccw'): Array<[number, number]> {
  const radius = Math.hypot(from[0] - center[0], from[1] - center[1]);
  const start = Math.atan2(from[1] - center[1], from[0] - center[0]);
  const end = Math.atan2(to[1] - center[1], to[0] - center[0]);
  let sweep = end - start;
  if (direction === 'ccw' && sweep <= 0) sweep += 2 * Math.PI;
  if (direction === 'cw' && sweep >= 0) sweep -= 2 * Math.PI;
  const steps = Math.max(1, Math.ceil((Math.abs(sweep) * radius) / ARC_STEP_MM));
  const points: Array<[number, number]> = [];
  for (let i = 1; i < steps; i++) {
    const angle = start + (sweep * i) / steps;
    points.push([center[0] + radius * Math.cos(angle), center[1] + radius * Math.sin(angle)]);
  }
  points.push(to);
  return points;
}

/** Reads lines until the first layer is complete (the caller may then drop the rest). */
export async function readFirstLayer(lines: AsyncIterable<string>): Promise<FirstLayer> {
  const reader = new Reader();
  for await (const line of lines) {
    reader.line(line);
    if (reader.done) break;
  }
  return reader.result();
}
