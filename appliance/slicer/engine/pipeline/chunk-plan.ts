/**
 * Which chunk of layers each worker builds next. A worker that builds the chunk right above the
 * one it built last finds the classification of that chunk's top layers in its cache (the fill
 * regions an internal bridge on the next layers rests on); a worker that starts a chunk anywhere
 * else classifies those layers again. So each worker takes a block of consecutive chunks, and the
 * next free block when it is through; at the end, a worker with no block left takes the upper half
 * of what another still has to build rather than idle.
 */

/** Layer ranges [first, last) of `count` chunks of about `length` layers over `total` layers, as even as they come. */
export function chunkStarts(total: number, length: number): number[] {
  const count = Math.max(1, Math.ceil(total / Math.max(1, length)));
  return Array.from({ length: count + 1 }, (_, k) => Math.floor((k * total) / count));
}

export class ChunkPlan {
  /** Per lane: the chunks of its block it has still to start, [next, end). */
  private readonly runs: { next: number; end: number }[];
  private nextBlock = 0;
  private unclaimed: number;

  constructor(
    readonly chunks: number,
    lanes: number,
    private readonly block: number,
  ) {
    this.runs = Array.from({ length: lanes }, () => ({ next: 0, end: 0 }));
    this.unclaimed = chunks;
  }

  /** Whether every chunk has been taken. */
  get done(): boolean {
    return this.unclaimed === 0;
  }

  /**
   * The chunk `lane` builds next, or null when it has none below `limit` (the chunks in flight are
   * bounded, so memory holds a few chunks of toolpaths, not the print) or none at all (`done`).
   */
  take(lane: number, limit: number): number | null {
    const run = this.runs[lane];
    if (run.next >= run.end) {
      if (this.nextBlock < this.chunks) {
        if (this.nextBlock >= limit) return null;
        run.next = this.nextBlock;
        this.nextBlock = run.end = Math.min(this.chunks, this.nextBlock + this.block);
      } else if (!this.steal(run, limit)) return null;
    }
    if (run.next >= limit) return null;
    this.unclaimed--;
    return run.next++;
  }

  /** Gives `thief` the upper half of the longest rest of another lane's block (the lower half is needed first). */
  private steal(thief: { next: number; end: number }, limit: number): boolean {
    let victim: { next: number; end: number } | null = null;
    for (const run of this.runs) if (run.end - run.next > (victim ? victim.end - victim.next : 0)) victim = run;
    if (!victim) return false;
    const mid = victim.end - Math.ceil((victim.end - victim.next) / 2);
    if (mid >= limit) return false;
    thief.next = mid;
    thief.end = victim.end;
    victim.end = mid;
    return true;
  }
}
