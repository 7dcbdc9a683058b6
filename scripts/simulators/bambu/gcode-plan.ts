/**
 * What the virtual printer needs to know about a G-code file to "print" it: a timeline of events
 * (progress and remaining time the slicer wrote with `M73 P.. R..`, layer changes, temperature
 * targets and heating waits, tool changes, part-fan speed) in printer seconds from the start.
 *
 * Time base: Bambu firmware reports the slicer's own `M73` figures, so when the file has
 * `M73 .. R<minutes>` lines their remaining time defines the clock (events between two of them
 * are placed by the motion time between them). Without them, time comes from a feed-rate model:
 * each move takes its length at its feedrate, arcs their arc length, `G4` its dwell, homing and
 * bed levelling a fixed time. Layers come from, in this order of preference, Bambu's `M73 L<n>`,
 * `; layer num/total_layer_count: n/N`, `;LAYER_CHANGE` / `; CHANGE_LAYER` (counted), Cura's
 * `;LAYER:<n>`; the total from the header (`; total layer number: N`, `;LAYER_COUNT:N`) or the
 * largest layer seen.
 */
import {
  commentStartsWith,
  CommandLetter,
  GcodeReader,
  type GcodeWords,
  Letter,
  type GcodeSink,
} from '../../../appliance/slicer/engine/estimate/gcode-reader.js';

export interface PlanEvent {
  /** Printer seconds from the start of the print. */
  at: number;
  percent?: number;
  remainingMin?: number;
  layer?: number;
  nozzleTarget?: number;
  bedTarget?: number;
  /** The print waits here until the nozzle (M109) or bed (M190) reaches its target. */
  waitNozzle?: boolean;
  waitBed?: boolean;
  tool?: number;
  /** Part-cooling fan, 0..255 (M106 S). */
  partFan?: number;
}

export interface PrintPlan {
  durationSec: number;
  totalLayers: number;
  /** The file carries `M73 P`: progress is reported as written, not computed from time. */
  progressFromFile: boolean;
  /** The file carries `M73 R`: remaining time is reported as written. */
  remainingFromFile: boolean;
  events: PlanEvent[];
}

/* Marlin's feedrate before any F word. */
const INITIAL_FEED_MM_S = 25;
/* Fixed times for moves the file does not describe: homing, and Bambu's full bed levelling. */
const HOMING_S = 10;
const BED_LEVELLING_S = 90;
const MIN_DURATION_S = 1;
const decoder = new TextDecoder();

interface RawEvent extends Omit<PlanEvent, 'at'> {
  line: number;
  motion: number;
}

type LayerSource = 'm73' | 'layerNum' | 'change' | 'cura';
const LAYER_PREFERENCE: readonly LayerSource[] = ['m73', 'layerNum', 'change', 'cura'];

class PlanSink implements GcodeSink {
  line = 0;
  motion = 0;
  private readonly pos = [0, 0, 0, 0];
  private feed = INITIAL_FEED_MM_S;
  private relative = false;
  private relativeE = false;
  readonly events: RawEvent[] = [];
  readonly layers: Record<LayerSource, RawEvent[]> = { m73: [], layerNum: [], change: [], cura: [] };
  readonly remainingKeys: Array<{ line: number; motion: number; remaining: number }> = [];
  totalLayersHint = 0;
  sawPercent = false;

  command(letter: number, code: number, w: GcodeWords): void {
    this.line++;
    if (letter === CommandLetter.T) {
      if (code >= 0 && code < 254) this.push({ tool: code });
      return;
    }
    if (letter === CommandLetter.G) this.gcode(code, w);
    else if (letter === CommandLetter.M) this.mcode(code, w);
  }

  comment(bytes: Uint8Array, start: number, end: number): void {
    this.line++;
    if (commentStartsWith(bytes, start, end, 'LAYER_CHANGE') || commentStartsWith(bytes, start, end, 'CHANGE_LAYER')) {
      this.layers.change.push(this.raw({ layer: this.layers.change.length + 1 }));
      return;
    }
    if (end - start > 120) return;
    const text = decoder.decode(bytes.subarray(start, end)).trim();
    const layerNum = /^layer num\/total_layer_count:\s*(\d+)\s*\/\s*(\d+)/.exec(text);
    if (layerNum) {
      this.layers.layerNum.push(this.raw({ layer: Number(layerNum[1]) }));
      this.totalLayersHint ||= Number(layerNum[2]);
      return;
    }
    const cura = /^LAYER:\s*(-?\d+)/.exec(text);
    if (cura) {
      this.layers.cura.push(this.raw({ layer: Number(cura[1]) + 1 }));
      return;
    }
    const total = /^total layer number:\s*(\d+)/.exec(text) ?? /^LAYER_COUNT:\s*(\d+)/.exec(text);
    if (total) this.totalLayersHint = Number(total[1]);
  }

  extended(): void {
    this.line++;
  }

  private raw(fields: Omit<RawEvent, 'line' | 'motion'>): RawEvent {
    return { ...fields, line: this.line, motion: this.motion };
  }

  private push(fields: Omit<RawEvent, 'line' | 'motion'>): void {
    this.events.push(this.raw(fields));
  }

  private gcode(code: number, w: GcodeWords): void {
    switch (code) {
      case 0:
      case 1:
        this.move(w);
        break;
      case 2:
      case 3:
        this.arc(w, code === 2);
        break;
      case 4:
        this.motion += (w.number(Letter.P) ?? 0) / 1000 + (w.number(Letter.S) ?? 0);
        break;
      case 28:
        this.motion += HOMING_S;
        break;
      case 29:
        this.motion += BED_LEVELLING_S;
        break;
      case 90:
        this.relative = false;
        this.relativeE = false;
        break;
      case 91:
        this.relative = true;
        this.relativeE = true;
        break;
      case 92:
        this.setPosition(w);
        break;
    }
  }

  private mcode(code: number, w: GcodeWords): void {
    const s = w.number(Letter.S);
    switch (code) {
      case 73:
        this.progress(w);
        break;
      case 82:
        this.relativeE = false;
        break;
      case 83:
        this.relativeE = true;
        break;
      case 104:
      case 109:
        if (s !== undefined) this.push({ nozzleTarget: s, waitNozzle: code === 109 && s > 0 });
        break;
      case 140:
      case 190:
        if (s !== undefined) this.push({ bedTarget: s, waitBed: code === 190 && s > 0 });
        break;
      case 106:
        if ((w.number(Letter.P) ?? 1) <= 1) this.push({ partFan: s ?? 255 });
        break;
      case 107:
        this.push({ partFan: 0 });
        break;
    }
  }

  private progress(w: GcodeWords): void {
    const p = w.number(Letter.P);
    const r = w.number(Letter.R);
    const l = w.number(Letter.L);
    if (l !== undefined) this.layers.m73.push(this.raw({ layer: l }));
    if (p === undefined && r === undefined) return;
    const fields: Omit<RawEvent, 'line' | 'motion'> = {};
    if (p !== undefined) {
      fields.percent = p;
      this.sawPercent = true;
    }
    if (r !== undefined) {
      fields.remainingMin = r;
      this.remainingKeys.push({ line: this.line, motion: this.motion, remaining: r });
    }
    this.push(fields);
  }

  private target(w: GcodeWords, letter: number, axis: number, relative: boolean): number {
    const v = w.number(letter);
    if (v === undefined) return this.pos[axis];
    return relative ? this.pos[axis] + v : v;
  }

  private move(w: GcodeWords): void {
    const f = w.number(Letter.F);
    if (f !== undefined && f > 0) this.feed = f / 60;
    const x = this.target(w, Letter.X, 0, this.relative);
    const y = this.target(w, Letter.Y, 1, this.relative);
    const z = this.target(w, Letter.Z, 2, this.relative);
    const e = this.target(w, Letter.E, 3, this.relativeE);
    const [px, py, pz, pe] = this.pos;
    const xyz = Math.hypot(x - px, y - py, z - pz);
    this.motion += (xyz > 0 ? xyz : Math.abs(e - pe)) / this.feed;
    this.pos[0] = x;
    this.pos[1] = y;
    this.pos[2] = z;
    this.pos[3] = e;
  }

  private arc(w: GcodeWords, clockwise: boolean): void {
    const f = w.number(Letter.F);
    if (f !== undefined && f > 0) this.feed = f / 60;
    const [px, py, pz] = this.pos;
    const x = this.target(w, Letter.X, 0, this.relative);
    const y = this.target(w, Letter.Y, 1, this.relative);
    const z = this.target(w, Letter.Z, 2, this.relative);
    const cx = px + (w.number(Letter.I) ?? 0);
    const cy = py + (w.number(Letter.J) ?? 0);
    const radius = Math.hypot(px - cx, py - cy);
    let sweep = Math.atan2(y - cy, x - cx) - Math.atan2(py - cy, px - cx);
    if (clockwise && sweep >= 0) sweep -= 2 * Math.PI;
    if (!clockwise && sweep <= 0) sweep += 2 * Math.PI;
    this.motion += Math.hypot(radius * Math.abs(sweep), z - pz) / this.feed;
    this.pos[0] = x;
    this.pos[1] = y;
    this.pos[2] = z;
    this.pos[3] = this.target(w, Letter.E, 3, this.relativeE);
  }

  private setPosition(w: GcodeWords): void {
    const letters = [Letter.X, Letter.Y, Letter.Z, Letter.E];
    const none = letters.every((l) => !w.has(l));
    letters.forEach((l, axis) => {
      if (none) this.pos[axis] = 0;
      else this.pos[axis] = w.number(l) ?? this.pos[axis];
    });
  }
}

/** Maps a file position to printer seconds, from the `M73 R` keyframes or the motion model. */
function clock(sink: PlanSink): { at: (e: { line: number; motion: number }) => number; duration: number } {
  const keys = sink.remainingKeys;
  if (keys.length === 0) return { at: (e) => e.motion, duration: sink.motion };
  const start = keys[0].remaining;
  let latest = 0;
  const times = keys.map((k) => (latest = Math.max(latest, (start - k.remaining) * 60)));
  const last = keys.length - 1;
  const at = (e: { line: number; motion: number }): number => {
    if (e.line <= keys[0].line) return 0;
    if (e.line >= keys[last].line) return times[last] + (e.motion - keys[last].motion);
    // The last keyframe at or before the event.
    let lo = 0;
    let hi = last;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (keys[mid].line <= e.line) lo = mid;
      else hi = mid;
    }
    const k = lo;
    const a = keys[k];
    const b = keys[k + 1];
    const span = b.motion - a.motion;
    const fraction = span > 0 ? (e.motion - a.motion) / span : (e.line - a.line) / (b.line - a.line);
    return times[k] + fraction * (times[k + 1] - times[k]);
  };
  return { at, duration: Math.max(start * 60, at({ line: sink.line, motion: sink.motion })) };
}

/** Reads a G-code file (whole, as bytes or text) into a plan. Throws on data that is not G-code. */
export function planFromGcode(gcode: Uint8Array | string): PrintPlan {
  const sink = new PlanSink();
  const reader = new GcodeReader(sink);
  reader.feed(gcode);
  reader.end();
  const source = LAYER_PREFERENCE.find((s) => sink.layers[s].length > 0);
  const layerEvents = source ? sink.layers[source] : [];
  const maxLayer = layerEvents.reduce((m, e) => Math.max(m, e.layer ?? 0), 0);
  const { at, duration } = clock(sink);
  const events = [...sink.events, ...layerEvents]
    .sort((a, b) => a.line - b.line)
    .map(({ line: _line, motion: _motion, ...fields }) => ({ ...fields, at: at({ line: _line, motion: _motion }) }));
  return {
    durationSec: Math.max(duration, MIN_DURATION_S),
    totalLayers: Math.max(sink.totalLayersHint, maxLayer),
    progressFromFile: sink.sawPercent,
    remainingFromFile: sink.remainingKeys.length > 0,
    events,
  };
}
