/**
 * Print time per feature type (perimeter, infill, support, …), from the comments slicers put before
 * each run of moves of one kind: `;TYPE:` (PrusaSlicer, CuraEngine, ours) and `; FEATURE:`
 * (OrcaSlicer, BambuStudio). Like layer starts, the time of each marker is only known once the
 * planner has planned past it, so the marker carries the type and the time comes back later; each
 * type's time is the span from its marker to the next one. Moves before any marker count as "Other".
 */
import { commentStartsWith } from './gcode-reader.js';

const FEATURE_COMMENTS = ['TYPE:', 'FEATURE:'] as const;
const TAG_PREFIX = 'feature:';
const UNTYPED = 'Other';
const decoder = new TextDecoder();

export class FeatureTracker {
  private current = UNTYPED;
  private since = 0;
  private readonly times = new Map<string, number>();

  /** The planner marker tag for a feature comment, or null when the comment is not one. */
  static tagOf(bytes: Uint8Array, start: number, end: number): string | null {
    for (const prefix of FEATURE_COMMENTS) {
      if (!commentStartsWith(bytes, start, end, prefix)) continue;
      const from = bytes.indexOf(prefix.charCodeAt(0), start) + prefix.length;
      const name = decoder.decode(bytes.subarray(from, end)).trim();
      return name === '' ? null : TAG_PREFIX + name;
    }
    return null;
  }

  /** Takes a resolved planner marker; false when it is not a feature marker. */
  resolved(tag: string, timeS: number): boolean {
    if (!tag.startsWith(TAG_PREFIX)) return false;
    this.close(timeS);
    this.current = tag.slice(TAG_PREFIX.length);
    return true;
  }

  /** Seconds per feature type, the last run closed at `totalS`; types that took no time are left out. */
  finish(totalS: number): Record<string, number> {
    this.close(totalS);
    const out: Record<string, number> = {};
    for (const [name, seconds] of this.times) if (seconds > 0) out[name] = seconds;
    return out;
  }

  private close(timeS: number): void {
    this.times.set(this.current, (this.times.get(this.current) ?? 0) + (timeS - this.since));
    this.since = timeS;
  }
}
