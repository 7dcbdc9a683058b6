/**
 * One layer's G-code before it is written: moves in a typed buffer (so cooling can retime them)
 * interleaved with text lines and fan marks. Formatting writes only the axes that change.
 */
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
}

const STRIDE = 6;

export class LayerBuffer {
  /** x, y, z, de, feedrate (mm/s), kind per move. */
  moves = new Float64Array(STRIDE * 256);
  count = 0;
  /** A number ≥ 0 is a move index; a string is a line; { fan } is a fan mark. */
  readonly items: (number | string | { fan: FanMark })[] = [];

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
    this.items.push(this.count++);
  }

  line(text: string): void {
    this.items.push(text);
  }

  fan(mark: FanMark): void {
    this.items.push({ fan: mark });
  }

  /** Slows every extrusion by `factor`, never below `minSpeed` (nor speeds up one already slower). */
  slowDown(factor: number, minSpeed: number): void {
    if (factor >= 1) return;
    for (let k = 0; k < this.count; k++) {
      const o = k * STRIDE;
      if (this.moves[o + 5] !== MoveKind.Extrude) continue;
      const f = this.moves[o + 4];
      this.moves[o + 4] = Math.max(f * factor, Math.min(f, minSpeed));
    }
  }
}

export const MOVE_STRIDE = STRIDE;

export function fmt(v: number, decimals: number): string {
  const s = v.toFixed(decimals);
  // Trim trailing zeros: "12.300" → "12.3", "5.000" → "5", "-0.000" → "0".
  let end = s.length;
  if (s.indexOf('.') >= 0) {
    while (s.charCodeAt(end - 1) === 48) end--;
    if (s.charCodeAt(end - 1) === 46) end--;
  }
  const out = s.slice(0, end);
  return out === '-0' ? '0' : out;
}
