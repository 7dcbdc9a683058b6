/**
 * Finds where layers start in a G-code stream. Slicers mark layer changes with a comment; the first
 * kind of marker met is the one counted, so a file carrying two conventions is not counted twice.
 * Without markers, a layer starts at the Z move that brought the nozzle to a height above any
 * extruded so far. Times come back from the planner later, through `resolved`, once the moves
 * before each marker are planned.
 */
import { commentStartsWith } from './gcode-reader.js';
import type { MotionPlanner } from './planner.js';

/* PrusaSlicer and OrcaSlicer; BambuStudio; CuraEngine. */
const LAYER_COMMENTS = ['LAYER_CHANGE', 'CHANGE_LAYER', 'LAYER:'] as const;
const Z_EPSILON = 1e-4;

export class LayerTracker {
  static readonly COMMENT_TAG = 'layer';
  static readonly Z_TAG = 'z';

  private commentKind = -1;
  private readonly commentStarts: number[] = [];
  private readonly zStarts: number[] = [];

  /* Z-change markers are numbered 1, 2, … in the order placed; the planner resolves them in that order. */
  private placed = 0;
  private resolvedCount = 0;
  private latestTime = 0;
  private readonly awaiting: number[] = [];
  private awaitingHead = 0;
  private layerZ = Number.NEGATIVE_INFINITY;

  /** Whether this comment is a layer change to count. */
  isLayerComment(bytes: Uint8Array, start: number, end: number): boolean {
    for (let kind = 0; kind < LAYER_COMMENTS.length; kind++) {
      if (commentStartsWith(bytes, start, end, LAYER_COMMENTS[kind])) {
        if (this.commentKind < 0) this.commentKind = kind;
        return this.commentKind === kind;
      }
    }
    return false;
  }

  /** A move changed Z: it may turn out to start a layer. */
  zChanged(planner: Pick<MotionPlanner, 'marker'>): void {
    planner.marker(LayerTracker.Z_TAG);
    this.placed++;
  }

  /** An extruding move ended at height `z` (file coordinates). */
  extrudedAt(z: number): void {
    if (z <= this.layerZ + Z_EPSILON) return;
    this.layerZ = z;
    const id = this.placed;
    if (id === 0) this.zStarts.push(0);
    else if (id <= this.resolvedCount) this.zStarts.push(this.latestTime);
    else this.awaiting.push(id);
  }

  resolved(tag: string, timeS: number): void {
    if (tag === LayerTracker.COMMENT_TAG) {
      this.commentStarts.push(timeS);
      return;
    }
    const id = ++this.resolvedCount;
    if (this.awaitingHead < this.awaiting.length && this.awaiting[this.awaitingHead] === id) {
      this.zStarts.push(timeS);
      this.awaitingHead++;
      if (this.awaitingHead === this.awaiting.length) {
        this.awaiting.length = 0;
        this.awaitingHead = 0;
      }
    } else if (id === this.placed) {
      this.latestTime = timeS;
    }
  }

  source(): 'comments' | 'z' {
    return this.commentStarts.length > 0 ? 'comments' : 'z';
  }

  starts(): number[] {
    return (this.commentStarts.length > 0 ? this.commentStarts : this.zStarts).slice();
  }
}
