/**
 * The motion planner's block queue (BLOCK_BUFFER_SIZE moves). A move command returns as soon as its
 * block is queued, which is why Marlin answers `ok` to G1 long before the head arrives; it waits
 * only when the queue is full. Blocks run one after another on the simulated clock; each block's
 * start is the previous block's end, so a late timer never stretches a print.
 */
import { AbortedError, type CancelTimer, type SimClock } from './clock.js';

export const BLOCK_BUFFER_SIZE = 16;

export interface Block {
  durationMs: number;
  /** Called when the block has finished moving (extrusion is counted then). */
  onDone?: () => void;
}

interface QueuedBlock extends Block {
  endsAt: number;
}

interface Waiter {
  ready: () => boolean;
  resolve: () => void;
}

export class Planner {
  private readonly clock: SimClock;
  private readonly blocks: QueuedBlock[] = [];
  private waiters: Waiter[] = [];
  private cancelTimer: CancelTimer | null = null;

  constructor(clock: SimClock) {
    this.clock = clock;
  }

  get queued(): number {
    this.finishDue();
    return this.blocks.length;
  }

  /** Free planner slots as ADVANCED_OK reports them (Marlin keeps one slot in reserve). */
  get free(): number {
    return BLOCK_BUFFER_SIZE - 1 - this.queued;
  }

  get moving(): boolean {
    return this.queued > 0;
  }

  /** Queues a block if there is a free slot; false when the queue is full. */
  tryAdd(block: Block): boolean {
    this.finishDue();
    if (this.blocks.length >= BLOCK_BUFFER_SIZE - 1) return false;
    const start = Math.max(this.clock.now(), this.blocks.at(-1)?.endsAt ?? 0);
    this.blocks.push({ ...block, endsAt: start + Math.max(0, block.durationMs) });
    this.schedule();
    return true;
  }

  /** Queues a block, waiting for a free slot first when the queue is full. */
  async add(block: Block, signal: AbortSignal): Promise<undefined> {
    while (!this.tryAdd(block)) await this.waitFor(() => this.blocks.length < BLOCK_BUFFER_SIZE - 1, signal);
  }

  /** Resolves when every queued move has finished (M400, G28, G4...). */
  synchronize(signal: AbortSignal): Promise<void> {
    return this.waitFor(() => this.blocks.length === 0, signal);
  }

  /** Drops every queued move at once (quickstop, kill, reset); their effects never happen. */
  clear(): void {
    this.blocks.length = 0;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.settleWaiters();
  }

  private waitFor(ready: () => boolean, signal: AbortSignal): Promise<void> {
    this.finishDue();
    if (ready()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new AbortedError());
        return;
      }
      const waiter: Waiter = {
        ready,
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new AbortedError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private finishDue(): void {
    const now = this.clock.now();
    let finished = false;
    while (this.blocks.length > 0 && this.blocks[0].endsAt <= now) {
      this.blocks.shift()?.onDone?.();
      finished = true;
    }
    if (finished) this.settleWaiters();
  }

  private settleWaiters(): void {
    const ready = this.waiters.filter((w) => w.ready());
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }

  private schedule(): void {
    if (this.cancelTimer || this.blocks.length === 0) return;
    this.cancelTimer = this.clock.at(this.blocks[0].endsAt, () => {
      this.cancelTimer = null;
      this.finishDue();
      this.schedule();
    });
  }
}
