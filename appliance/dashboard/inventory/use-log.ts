/**
 * The use log (`inventory-uses.log`, an append-only log): every time filament was taken off a
 * spool — by the ledger (`use` with a key), Spoolman's `use` and `measure` — with the grams, the
 * time, and the spool's material, colour and vendor at that moment (so the statistics outlive the
 * spool). Its keys make `use` idempotent across restarts.
 *
 * A record is appended (and fsynced) before the spool's new weight is written to inventory.json;
 * each spool remembers the last record applied (`last_use_seq`), so a restart between the two
 * writes applies the missing records instead of losing them, and a retried key finds its record.
 */
import path from 'node:path';
import { AppendLog } from '../../common/append-log.js';
import type { JsonStores } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';

export interface UseRecord {
  seq: number;
  key: string;
  spool_id: number;
  /** What the spool's used weight changed by (after the cap); negative for Spoolman's give-backs. */
  grams: number;
  at: string;
  material: string;
  /** `#rrggbb` or null. */
  color_hex: string | null;
  vendor: string | null;
}

interface UseState {
  records: UseRecord[];
  byKey: Map<string, UseRecord>;
  lastSeq: number;
}

function checkRecord(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const r = value as Record<string, unknown>;
  if (!Number.isInteger(r.seq) || !Number.isInteger(r.spool_id)) return 'seq and spool_id must be integers';
  if (typeof r.key !== 'string' || typeof r.at !== 'string' || typeof r.material !== 'string') return 'key, at and material must be text';
  if (typeof r.grams !== 'number' || !Number.isFinite(r.grams)) return 'grams must be a number';
  return null;
}

export class UseLog {
  private constructor(private readonly log: AppendLog<UseState, UseRecord>) {}

  static async open(stores: JsonStores, log: Logger): Promise<UseLog> {
    const appendLog = await AppendLog.open<UseState, UseRecord>({
      file: path.join(stores.dir, 'inventory-uses.log'),
      empty: () => ({ records: [], byKey: new Map(), lastSeq: 0 }),
      apply(state, record) {
        state.records.push(record);
        state.byKey.set(record.key, record);
        state.lastSeq = Math.max(state.lastSeq, record.seq);
      },
      snapshot: (state) => state.records,
      check: checkRecord,
      log,
    });
    stores.track(appendLog);
    return new UseLog(appendLog);
  }

  byKey(key: string): UseRecord | undefined {
    return this.log.state.byKey.get(key);
  }

  get nextSeq(): number {
    return this.log.state.lastSeq + 1;
  }

  records(): readonly UseRecord[] {
    return this.log.state.records;
  }

  /** Records after `seq` for one spool: what a restart must still apply to it. */
  after(spoolId: number, seq: number): UseRecord[] {
    return this.log.state.records.filter((r) => r.spool_id === spoolId && r.seq > seq);
  }

  append(record: UseRecord): Promise<void> {
    return this.log.append(record);
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
