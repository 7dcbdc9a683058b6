/**
 * Writes a layer buffer out as G-code bytes: only the axes that change, relative or absolute E,
 * the feed rate when it changes, fan commands where the marks ask for them, extruder and Z
 * offsets; every move also goes to the planner, which times the print.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { pick } from '../toolpath/speeds.js';
import type { Flavour } from './flavour.js';
import { AsciiOut } from './ascii-out.js';
import { FanMark, type LayerBuffer, MOVE_STRIDE, MoveKind } from './layer-buffer.js';
import type { PlannerSink } from './planner-sink.js';

/** Written where M73 progress goes; the assembler replaces it once the total time is known. */
export const PROGRESS_MARK = ';PRINTYARD_PROGRESS ';

/** What `gcode_comments` appends to each kind of move. */
const VERBOSE = [' ; travel', '', ' ; retract / unretract', ' ; lift / lower'];

/** Character codes of the words of a move. */
const [G, ONE, SPACE, X, Y, Z, E, F, NEWLINE] = [...'G1 XYZEF\n'].map((ch) => ch.charCodeAt(0));

/** Accelerations set in the stream (by the writer) reach the planner where they are written. */
const ACCELERATION = /^(?:M204 S|SET_VELOCITY_LIMIT ACCEL=)(\d+)/;
/** The first characters of the lines `ACCELERATION` can match: other lines skip the expression. */
const [M, S] = [...'MS'].map((ch) => ch.charCodeAt(0));

export class GcodeFormatter {
  private eAbs = 0;
  private lastFeed = -1;
  private fanNow = -1;
  private filament = 0;
  private readonly used: number[];
  private readonly ascii = new AsciiOut();
  private readonly relE: boolean;
  private readonly zOffset: number;
  private readonly verbose: boolean;
  /* The layer's extruder offset and the last position written (NaN: none yet on this layer). */
  private offX = 0;
  private offY = 0;
  private cx = NaN;
  private cy = NaN;
  private cz = NaN;
  /** The numbers of the move being written: X, Y, Z, E. */
  private readonly word = new Float64Array(4);
  readonly bounds: [number, number, number, number, number, number] = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];

  constructor(
    private readonly c: PrintConfig,
    private readonly f: Flavour,
    private readonly planner: PlannerSink,
    private readonly out: (bytes: Uint8Array) => void,
  ) {
    this.used = c.filament_diameter.map(() => 0);
    this.relE = c.use_relative_e_distances;
    this.zOffset = c.z_offset;
    this.verbose = c.gcode_comments;
  }

  /** mm of filament pushed per filament so far (net of retractions). */
  get filamentMm(): number[] {
    return this.used.slice();
  }

  write(b: LayerBuffer, fan: number, bridgeFan: number): void {
    const c = this.c;
    const m = b.moves;
    const out = this.ascii;
    // Firmware that does not shift for its tools gets the G-code shifted (PrusaSlicer's extruder offset).
    const offsetOf = (tool: number): [number, number] => (c.single_extruder_multi_material ? [0, 0] : (pick(c.extruder_offset, tool) ?? [0, 0]));
    [this.offX, this.offY] = offsetOf(this.filament);
    this.cx = NaN;
    this.cy = NaN;
    this.cz = NaN;
    const items = b.items;
    for (let k = 0; k < b.itemCount; k++) {
      const item = items[k];
      // Moves first: they are most of the items.
      if (typeof item === 'number') {
        this.move(m, item * MOVE_STRIDE);
        continue;
      }
      if (typeof item === 'string') {
        out.text(item);
        out.char(NEWLINE);
        if (item.startsWith(PROGRESS_MARK)) this.planner.marker(item.slice(PROGRESS_MARK.length));
        const first = item.charCodeAt(0);
        if (first === M || first === S) {
          const accel = ACCELERATION.exec(item);
          if (accel) this.planner.setAccelerations({ print: Number(accel[1]), travel: Number(accel[1]) });
        }
        continue;
      }
      if ('tool' in item) {
        this.filament = item.tool;
        [this.offX, this.offY] = offsetOf(this.filament);
        continue;
      }
      const want = item.fan === FanMark.Off ? 0 : Math.round(item.fan === FanMark.Bridge ? bridgeFan : fan);
      if (want !== this.fanNow) {
        out.text(this.f.fan(want));
        out.char(NEWLINE);
        this.fanNow = want;
      }
    }
    this.out(out.take());
  }

  /**
   * One move of the buffer (at `o` in `m`) as a line, and to the planner. A method of its own:
   * small enough to be optimised after a few hundred moves, where the whole loop took thousands.
   */
  private move(m: Float64Array, o: number): void {
    const out = this.ascii;
    const word = this.word;
    const x = m[o] - this.offX;
    const y = m[o + 1] - this.offY;
    const z = m[o + 2] + this.zOffset;
    const de = m[o + 3];
    const feed = m[o + 4];
    const kind = m[o + 5];
    word[0] = x;
    word[1] = y;
    word[2] = z;
    out.pair(G, ONE);
    const planar = kind !== MoveKind.Retract && kind !== MoveKind.Lift;
    if (planar && x !== this.cx) out.fixedAt(word, 0, 3, X);
    if (planar && y !== this.cy) out.fixedAt(word, 1, 3, Y);
    if (kind === MoveKind.Lift || (kind !== MoveKind.Retract && z !== this.cz && !Number.isNaN(this.cz))) out.fixedAt(word, 2, 3, Z);
    this.cx = x;
    this.cy = y;
    this.cz = z;
    if (de !== 0) {
      this.eAbs += de;
      this.used[this.filament] += de;
      word[3] = this.relE ? de : this.eAbs;
      out.fixedAt(word, 3, 5, E);
    }
    const f = Math.round(feed * 60);
    if (f !== this.lastFeed) {
      out.pair(SPACE, F);
      out.int(f);
      this.lastFeed = f;
    }
    if (this.verbose) out.text(VERBOSE[kind]);
    out.char(NEWLINE);
    this.planner.move(x, y, z, this.eAbs, feed);
    if (kind === MoveKind.Extrude) this.extend();
  }

  /** The bounds grown by the move in `word` (its numbers read from there: passed, they were allocated for every extrusion). */
  private extend(): void {
    const bb = this.bounds;
    const word = this.word;
    const x = word[0];
    const y = word[1];
    const z = word[2];
    if (x < bb[0]) bb[0] = x;
    if (y < bb[1]) bb[1] = y;
    if (z < bb[2]) bb[2] = z;
    if (x > bb[3]) bb[3] = x;
    if (y > bb[4]) bb[4] = y;
    if (z > bb[5]) bb[5] = z;
  }
}
