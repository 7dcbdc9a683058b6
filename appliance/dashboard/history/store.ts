/**
 * The records, kept in `history.log` (an append-only log, common/append-log.ts): opening a
 * record, closing it or deleting it appends one line, whatever the number of records, and the
 * log is compacted as it grows. The records live in memory (the index every query and the stats
 * run over); a change is on disk before a reader sees it.
 */
import path from 'node:path';
import { AppendLog, type AppendLogStats } from '../../common/append-log.js';
import type { StoreProblem } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { recordProblem, type HistoryRecord } from './record.js';

export const LOG_FILE = 'history.log';

type LogLine = { op: 'put'; record: HistoryRecord } | { op: 'delete'; id: string };

interface HistoryState {
  byId: Map<string, HistoryRecord>;
}

function lineProblem(line: unknown): string | null {
  if (typeof line !== 'object' || line === null) return 'not an object';
  const { op } = line as { op?: unknown };
  if (op === 'put') return recordProblem((line as { record?: unknown }).record);
  if (op === 'delete') return typeof (line as { id?: unknown }).id === 'string' ? null : 'id is not a string';
  return `unknown op ${JSON.stringify(op)}`;
}

function apply(state: HistoryState, line: LogLine): void {
  if (line.op === 'put') state.byId.set(line.record.id, line.record);
  else state.byId.delete(line.id);
}

function* snapshot(state: HistoryState): Iterable<LogLine> {
  for (const record of state.byId.values()) yield { op: 'put', record };
}

/** Oldest start first, ties by id: the order every listing starts from. */
function byStart(a: HistoryRecord, b: HistoryRecord): number {
  if (a.started_at !== b.started_at) return a.started_at < b.started_at ? -1 : 1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}

export interface HistoryStoreOptions {
  dataDir: string;
  log: Logger;
  compactRatio?: number;
  compactMinBytes?: number;
}

export class HistoryStore {
  /** Every record by start time; rebuilt lazily after a record is added or removed. */
  private ordered: HistoryRecord[] = [];
  private orderedValid = false;

  private constructor(private readonly log: AppendLog<HistoryState, LogLine>) {}

  static async open(options: HistoryStoreOptions): Promise<HistoryStore> {
    const log = await AppendLog.open<HistoryState, LogLine>({
      file: path.join(options.dataDir, LOG_FILE),
      empty: () => ({ byId: new Map() }),
      apply,
      snapshot,
      check: lineProblem,
      log: options.log,
      ...(options.compactRatio === undefined ? {} : { compactRatio: options.compactRatio }),
      ...(options.compactMinBytes === undefined ? {} : { compactMinBytes: options.compactMinBytes }),
    });
    return new HistoryStore(log);
  }

  get(id: string): HistoryRecord | null {
    return this.log.state.byId.get(id) ?? null;
  }

  get size(): number {
    return this.log.state.byId.size;
  }

  /** Every record, oldest start first. Read it; change records only through `put` and `delete`. */
  all(): readonly HistoryRecord[] {
    if (!this.orderedValid) {
      this.ordered = [...this.log.state.byId.values()].sort(byStart);
      this.orderedValid = true;
    }
    return this.ordered;
  }

  /** Records still open (prints running when they were last seen). */
  open(): HistoryRecord[] {
    return this.all().filter((r) => r.state === 'printing');
  }

  /** Writes the record (new or changed); resolves once it is on disk. */
  async put(record: HistoryRecord): Promise<void> {
    const known = this.log.state.byId.get(record.id);
    await this.log.append({ op: 'put', record });
    if (!known || known.started_at !== record.started_at) this.orderedValid = false;
    else if (this.orderedValid) this.ordered[this.ordered.indexOf(known)] = record;
  }

  /** Puts many records with one write (imports, the benchmark's seed). */
  async putMany(records: readonly HistoryRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.log.append(...records.map((record) => ({ op: 'put' as const, record })));
    this.orderedValid = false;
  }

  async delete(id: string): Promise<boolean> {
    if (!this.log.state.byId.has(id)) return false;
    await this.log.append({ op: 'delete', id });
    this.orderedValid = false;
    return true;
  }

  problems(): readonly StoreProblem[] {
    return this.log.problems();
  }

  stats(): AppendLogStats {
    return this.log.stats();
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
