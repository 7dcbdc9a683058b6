/**
 * One layer's G-code before it is written: moves in a typed buffer (so cooling can retime them)
 * interleaved with text lines and fan marks. Formatting writes only the axes that change.
 */
import { length3 } from '../geometry/polygon.js';

export const enum MoveKind {
  Travel = 0,
  Extrude = 1,
  /** E only: retraction or its undo. */
  Retract = 2,
  /** Z only: layer change or z-hop. */
  Lift = 3,
}

/** Where the fan must switch; the speeds are decided once the layer's time is known. */
export const enum FanMark {
  Normal = 0,
  Bridge = 1,
  Off = 2,
}

const STRIDE = 6;

/** A number ≥ 0 is a move index; a string is a line; { fan } a fan mark; { tool } a filament change. */
export type LayerItem = number | string | { readonly fan: FanMark } | { tool: number };
/** One item per fan mark, shared by every layer: an object per mark was garbage. */
const FAN_ITEMS: readonly { readonly fan: FanMark }[] = [{ fan: FanMark.Normal }, { fan: FanMark.Bridge }, { fan: FanMark.Off }];

export class LayerBuffer {
  /** x, y, z, de, feedrate (mm/s), kind per move. */
  moves = new Float64Array(STRIDE * 256);
  count = 0;
  /* The extrusions' lengths, feed rates and places while `slowDownTo` looks for its factor, kept for the next layer. */
  private slowLengths = new Float64Array(0);
  private slowFeeds = new Float64Array(0);
  private slowIndex = new Int32Array(0);
  /** The first `itemCount` are the layer's, in order. */
  readonly items: LayerItem[] = [];
  /**
   * How many of `items` are this layer's. The array is never shortened: emptied by its length, it
   * would give up its storage and grow it again, copy by copy, on every layer.
   */
  itemCount = 0;

  /** Empties the buffer for the next layer, keeping its storage (a new one per layer was 5 % of the writer's time). */
  clear(): void {
    this.count = 0;
    this.itemCount = 0;
  }

  move(x: number, y: number, z: number, de: number, feed: number, kind: MoveKind): void {
    if ((this.count + 1) * STRIDE > this.moves.length) {
      const grown = new Float64Array(this.moves.length * 2);
      grown.set(this.moves);
      this.moves = grown;
    }
    const o = this.count * STRIDE;
    this.moves[o] = x;
    this.moves[o + 1] = y;
    this.moves[o + 2] = z;
    this.moves[o + 3] = de;
    this.moves[o + 4] = feed;
    this.moves[o + 5] = kind;
    this.item(this.count++);
  }

  line(text: string): void {
    this.item(text);
  }

  fan(mark: FanMark): void {
    this.item(FAN_ITEMS[mark]);
  }

  /** From here on the moves belong to filament `tool` (its usage and extruder offset). */
  tool(tool: number): void {
    this.item({ tool });
  }

  /** Adds an item: over a stale one of an earlier layer, or at the end. */
  private item(item: LayerItem): void {
    this.items[this.itemCount++] = item;
  }

  /**
   * Time of the moves at their feed rates, without acceleration: what OrcaSlicer's and PrusaSlicer's
   * cooling logic calls the layer time. `extruding` is the part spent extruding.
   */
  idealTimes(fromX: number, fromY: number, fromZ: number): { total: number; extruding: number } {
    const m = this.moves;
    let total = 0;
    let extruding = 0;
    let x = fromX;
    let y = fromY;
    let z = fromZ;
    for (let k = 0; k < this.count; k++) {
      const o = k * STRIDE;
      const d = length3(m[o] - x, m[o + 1] - y, m[o + 2] - z) || Math.abs(m[o + 3]);
      const t = d / m[o + 4];
      total += t;
      if (m[o + 5] === MoveKind.Extrude) extruding += t;
      x = m[o];
      y = m[o + 1];
      z = m[o + 2];
    }
    return { total, extruding };
  }

  /**
   * Slows the extrusions so that they take `target` seconds (at feed rates), none below
   * `minSpeed` (nor sped up if already slower). The common factor is found by bisection because
   * the moves that hit the floor stop contributing.
   */
  slowDownTo(target: number, minSpeed: number, fromX: number, fromY: number, fromZ: number): void {
    const m = this.moves;
    if (this.slowLengths.length < this.count) {
      this.slowLengths = new Float64Array(this.moves.length / STRIDE);
      this.slowFeeds = new Float64Array(this.moves.length / STRIDE);
      this.slowIndex = new Int32Array(this.moves.length / STRIDE);
    }
    const lengths = this.slowLengths;
    const feeds = this.slowFeeds;
    const index = this.slowIndex;
    let extrusions = 0;
    let x = fromX;
    let y = fromY;
    let z = fromZ;
    for (let k = 0; k < this.count; k++) {
      const o = k * STRIDE;
      if (m[o + 5] === MoveKind.Extrude) {
        lengths[extrusions] = length3(m[o] - x, m[o + 1] - y, m[o + 2] - z);
        feeds[extrusions] = m[o + 4];
        index[extrusions++] = o;
      }
      x = m[o];
      y = m[o + 1];
      z = m[o + 2];
    }
    const timeAt = (factor: number) => {
      let t = 0;
      for (let k = 0; k < extrusions; k++) t += lengths[k] / Math.max(feeds[k] * factor, Math.min(feeds[k], minSpeed));
      return t;
    };
    if (timeAt(1) >= target) return;
    let lo = 0;
    let hi = 1;
    if (timeAt(1e-6) < target) lo = hi = 1e-6;
    for (let step = 0; step < 40 && hi - lo > 1e-6; step++) {
      const mid = (lo + hi) / 2;
      if (timeAt(mid) > target) lo = mid;
      else hi = mid;
    }
    for (let k = 0; k < extrusions; k++) m[index[k] + 4] = Math.max(feeds[k] * hi, Math.min(feeds[k], minSpeed));
  }
}

export const MOVE_STRIDE = STRIDE;
