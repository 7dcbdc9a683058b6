/** Progress of a slice as the contract reports it: stages with an overall percent that never goes back, and per-layer counters. */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { LayerEvent, ProgressEvent, SliceStage } from '../api.js';

const RANGES: Record<SliceStage, [number, number]> = {
  loading: [0, 5],
  repairing: [5, 10],
  slicing: [10, 30],
  gcode: [30, 100],
};

export class Progress {
  private pct = 0;
  private stage: SliceStage = 'loading';
  private lastSent = -1;

  constructor(
    private readonly onProgress?: (e: ProgressEvent) => void,
    private readonly onLayer?: (e: LayerEvent) => void,
    private readonly signal?: AbortSignal,
  ) {}

  /** Enters a stage (reported at its start percent). */
  enter(stage: SliceStage): void {
    this.checkCancelled();
    this.stage = stage;
    this.report(RANGES[stage][0], true);
  }

  /** Fraction 0..1 of the current stage done. */
  within(fraction: number): void {
    const [a, b] = RANGES[this.stage];
    this.report(a + (b - a) * Math.min(1, Math.max(0, fraction)), false);
  }

  layer(layer: number, total: number): void {
    this.onLayer?.({ stage: this.stage, layer, total_layers: total });
  }

  done(): void {
    this.report(100, true);
  }

  checkCancelled(): void {
    if (this.signal?.aborted) throw new AppError(ErrorCode.cancelled, 409, 'slice cancelled');
  }

  private report(pct: number, force: boolean): void {
    if (pct < this.pct) return;
    this.pct = pct;
    const rounded = Math.round(pct * 10) / 10;
    if (!force && rounded === this.lastSent) return;
    this.lastSent = rounded;
    this.onProgress?.({ stage: this.stage, pct: rounded });
  }
}
