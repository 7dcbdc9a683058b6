/**
 * The queue-wide pause, kept in `queue-pause.json`: while any reason pauses the queue, the
 * dispatcher starts nothing (copies already sent or printing go on). Each reason is its own
 * pause (an automation's `dispatch-window`, a person's "changing nozzles"), so resuming one
 * reason leaves the others in force, the way the automation's per-reason holds of jobs worked.
 */
import type { JsonStore, JsonStores } from '../../common/json-store.js';

export const MAX_PAUSE_REASON_LENGTH = 200;

export interface PauseEntry {
  reason: string;
  /** The user or API key that paused. */
  by: string;
  at: string;
}

/** What GET /api/queue shows and `queue.update` {action: paused|resumed} carries. */
export interface PauseView {
  paused: boolean;
  reasons: PauseEntry[];
}

interface PauseFile {
  reasons: PauseEntry[];
}

function checkShape(data: unknown): string | null {
  const reasons = (data as Partial<PauseFile> | null)?.reasons;
  if (!Array.isArray(reasons)) return 'expected { reasons: [...] }';
  if (!reasons.every((r) => typeof r?.reason === 'string' && typeof r.by === 'string' && typeof r.at === 'string'))
    return 'a pause lacks its reason, by or at';
  return null;
}

export class QueuePause {
  private constructor(private readonly store: JsonStore<PauseFile>) {}

  static async open(stores: JsonStores): Promise<QueuePause> {
    return new QueuePause(await stores.open<PauseFile>('queue-pause', { reasons: [] }, checkShape));
  }

  view(): PauseView {
    const reasons = this.store.data.reasons.map((r) => ({ ...r }));
    return { paused: reasons.length > 0, reasons };
  }

  /** The waiting reason of a job that would go out but for the pause; null when not paused. */
  waitingReason(): string | null {
    const reasons = this.store.data.reasons;
    return reasons.length === 0 ? null : `queue paused: ${reasons.map((r) => r.reason).join('; ')}`;
  }

  /** Pauses for the reason; false when that reason pauses the queue already (nothing to announce). */
  async pause(reason: string, by: string, at = new Date()): Promise<boolean> {
    if (this.store.data.reasons.some((r) => r.reason === reason)) return false;
    this.store.data.reasons.push({ reason, by, at: at.toISOString() });
    await this.store.write();
    return true;
  }

  /** Ends the pause of this reason, or of every reason when null; false when nothing was paused so. */
  async resume(reason: string | null): Promise<boolean> {
    const kept = reason === null ? [] : this.store.data.reasons.filter((r) => r.reason !== reason);
    if (kept.length === this.store.data.reasons.length) return false;
    this.store.data.reasons = kept;
    await this.store.write();
    return true;
  }
}
