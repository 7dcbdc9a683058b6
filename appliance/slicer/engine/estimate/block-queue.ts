/**
 * The look-ahead queue of planned moves ("blocks") and the passes that give each block its entry,
 * cruise and exit speed. A fixed ring of typed arrays: memory does not grow with the file.
 *
 * Speeds are kept squared (mm²/s²) as every firmware planner does, so a block's speed change is
 * simply `2 × acceleration × length`. The newest block is always assumed to end the stream at rest;
 * blocks are committed (timed and dropped) from the front once enough newer blocks follow them that
 * this assumption no longer matters.
 */

export class BlockQueue {
  readonly capacity: number;
  private readonly mask: number;
  private head = 0;
  private size = 0;

  private readonly length: Float64Array;
  private readonly accel: Float64Array;
  private readonly nominal2: Float64Array;
  private readonly maxEntry2: Float64Array;
  /** Squared speed the block may start or stop at from standstill. */
  private readonly rest2: Float64Array;
  /** Klipper: 2 × smoothing acceleration × length. */
  private readonly smoothDelta2: Float64Array;

  /* Working arrays, indexed by position in the window (0 = oldest block). */
  private readonly entry2: Float64Array;
  private readonly cap2: Float64Array;
  private readonly smooth2: Float64Array;
  private readonly forward2: Float64Array;
  private readonly forwardSmooth2: Float64Array;
  private readonly decelerating: Uint8Array;

  /* What the blocks already committed imposed on the oldest block still queued. */
  private fixedEntry2 = Number.NaN;
  private fixedSmooth2 = Number.NaN;
  private runPeak2 = Number.POSITIVE_INFINITY;
  private runMin2 = Number.POSITIVE_INFINITY;

  constructor(
    capacity: number,
    private readonly klipper: boolean,
  ) {
    this.capacity = capacity;
    this.mask = capacity - 1;
    this.length = new Float64Array(capacity);
    this.accel = new Float64Array(capacity);
    this.nominal2 = new Float64Array(capacity);
    this.maxEntry2 = new Float64Array(capacity);
    this.rest2 = new Float64Array(capacity);
    this.smoothDelta2 = new Float64Array(capacity);
    this.entry2 = new Float64Array(capacity);
    this.cap2 = new Float64Array(capacity);
    this.smooth2 = new Float64Array(capacity);
    this.forward2 = new Float64Array(capacity);
    this.forwardSmooth2 = new Float64Array(capacity);
    this.decelerating = new Uint8Array(capacity);
  }

  get count(): number {
    return this.size;
  }

  get full(): boolean {
    return this.size === this.capacity;
  }

  push(length: number, accel: number, nominal2: number, maxEntry2: number, rest2: number, smoothDelta2: number): void {
    const i = (this.head + this.size) & this.mask;
    this.length[i] = length;
    this.accel[i] = accel;
    this.nominal2[i] = nominal2;
    this.maxEntry2[i] = maxEntry2;
    this.rest2[i] = rest2;
    this.smoothDelta2[i] = smoothDelta2;
    this.size++;
  }

  /**
   * Plans every queued block, then writes the duration of the oldest `commitCount` blocks to
   * `times` and drops them. Committing all blocks leaves the machine at rest.
   */
  commit(commitCount: number, times: Float64Array): void {
    const n = this.size;
    if (this.klipper) this.klipperCaps(n, commitCount);
    this.plan(n);
    const { mask, head, length, accel, entry2 } = this;
    for (let j = 0; j < commitCount; j++) {
      const i = (head + j) & mask;
      const delta2 = 2 * accel[i] * length[i];
      const v0 = entry2[j];
      const v1 = j + 1 < n ? entry2[j + 1] : Math.min(this.rest2[i], v0 + delta2);
      const nominal = this.klipper ? Math.min(this.nominal2[i], this.cap2[j]) : this.nominal2[i];
      const cruise = Math.min(nominal, 0.5 * (v0 + v1 + delta2));
      times[j] = trapezoidTime(length[i], accel[i], v0, v1, cruise);
    }
    if (commitCount < n) {
      this.fixedEntry2 = entry2[commitCount];
      this.fixedSmooth2 = this.smooth2[commitCount];
    } else {
      this.fixedEntry2 = Number.NaN;
      this.fixedSmooth2 = Number.NaN;
      this.runPeak2 = Number.POSITIVE_INFINITY;
      this.runMin2 = Number.POSITIVE_INFINITY;
    }
    this.head = (head + commitCount) & mask;
    this.size = n - commitCount;
  }

  /** Backward pass (every block can still slow down for what follows), then forward pass (every block can be reached). */
  private plan(n: number): void {
    const { mask, head, length, accel, maxEntry2, entry2, cap2, klipper } = this;
    const last = (head + n - 1) & mask;
    let next = this.rest2[last];
    for (let j = n - 1; j >= 0; j--) {
      const i = (head + j) & mask;
      let limit = maxEntry2[i];
      if (klipper) limit = Math.min(limit, cap2[j], j > 0 ? cap2[j - 1] : limit);
      const reachable = next + 2 * accel[i] * length[i];
      next = limit < reachable ? limit : reachable;
      entry2[j] = next;
    }
    if (!Number.isNaN(this.fixedEntry2)) entry2[0] = this.fixedEntry2;
    for (let j = 1; j < n; j++) {
      const p = (head + j - 1) & mask;
      const reachable = entry2[j - 1] + 2 * accel[p] * length[p];
      if (entry2[j] > reachable) entry2[j] = reachable;
    }
  }

  /**
   * Klipper's minimum_cruise_ratio: a second profile planned with the reduced "smoothing"
   * acceleration finds, for each run of moves between two slow junctions, the peak speed worth
   * reaching. Moves rising towards a peak may cruise at most at that peak; moves after it, where
   * the smoothed profile only slows down, never speed up again. The result is a cruise cap per move
   * (`cap2`) that the ordinary passes then respect.
   */
  private klipperCaps(n: number, commitCount: number): void {
    const { mask, head, length, accel, maxEntry2, smoothDelta2, nominal2, forward2, forwardSmooth2, cap2, smooth2, decelerating } = this;
    const first = head & mask;
    let reach = Number.isNaN(this.fixedEntry2) ? maxEntry2[first] : this.fixedEntry2;
    let reachSmooth = Number.isNaN(this.fixedSmooth2) ? maxEntry2[first] : this.fixedSmooth2;
    forward2[0] = reach;
    forwardSmooth2[0] = reachSmooth;
    for (let j = 1; j < n; j++) {
      const i = (head + j) & mask;
      const p = (head + j - 1) & mask;
      reach = Math.min(maxEntry2[i], reach + 2 * accel[p] * length[p]);
      reachSmooth = Math.min(maxEntry2[i], reachSmooth + smoothDelta2[p]);
      forward2[j] = reach;
      forwardSmooth2[j] = reachSmooth;
    }

    let next = 0;
    let nextSmooth = 0;
    let peak = Number.POSITIVE_INFINITY;
    let peakPending = false;
    for (let j = n - 1; j >= 0; j--) {
      const i = (head + j) & mask;
      const start = Math.min(forward2[j], next + 2 * accel[i] * length[i]);
      const reachableSmooth = nextSmooth + smoothDelta2[i];
      const smooth = Math.min(forwardSmooth2[j], reachableSmooth);
      if (smooth < reachableSmooth) {
        if (smooth + smoothDelta2[i] > nextSmooth || peakPending) {
          peak = Math.min(nominal2[i], 0.5 * (smooth + reachableSmooth));
          peakPending = false;
        }
        cap2[j] = peak;
        decelerating[j] = 0;
      } else {
        cap2[j] = start;
        decelerating[j] = 1;
        peakPending = true;
      }
      smooth2[j] = smooth;
      next = start;
      nextSmooth = smooth;
    }

    let runPeak = this.runPeak2;
    let runMin = this.runMin2;
    for (let j = 0; j < n; j++) {
      if (decelerating[j] === 0) {
        runPeak = cap2[j];
        runMin = Number.POSITIVE_INFINITY;
      } else {
        if (cap2[j] < runMin) runMin = cap2[j];
        cap2[j] = Math.min(runPeak, runMin);
      }
      if (j === commitCount - 1) {
        this.runPeak2 = runPeak;
        this.runMin2 = runMin;
      }
    }
  }
}

/**
 * Duration of one block: accelerate from the entry speed to the cruise speed, cruise, decelerate
 * to the exit speed. Squared speeds in; a cruise below the entry or exit (possible only when the
 * look-ahead window cut a deceleration short) is lifted to them.
 */
export function trapezoidTime(length: number, accel: number, entry2: number, exit2: number, cruise2: number): number {
  const peak2 = Math.max(cruise2, entry2, exit2);
  const cruiseLength = length - (2 * peak2 - entry2 - exit2) / (2 * accel);
  const peak = Math.sqrt(peak2);
  const ramps = (2 * peak - Math.sqrt(entry2) - Math.sqrt(exit2)) / accel;
  return cruiseLength > 0 ? ramps + cruiseLength / peak : ramps;
}
