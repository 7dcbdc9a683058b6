/**
 * A store that grows with use (the notification inbox; history and climate readings later),
 * written so that one change costs the same whatever the store's size. Each change is a record
 * appended to the file as one line of JSON and fsynced before its call resolves; appends that
 * arrive while a write is on disk share the next write and its one fsync. Opening replays the
 * lines into the state.
 *
 * When the file has grown past a multiple of the live state, the live state is written out as a
 * new file (compaction) with json-store's atomic steps: temp file, fsync, rename, fsync
 * directory. A crash between any two steps leaves either the old log or the new one, each whole;
 * a leftover temp file is removed at open. Bytes written per change stay bounded (about three
 * times the record's size with the default ratio of 2), however large the store.
 *
 * The state changes only once a record is durable: a failed write leaves the state as it was,
 * cuts the file back to its last good length, and later appends work again.
 *
 * Replay is forgiving: an incomplete last line (a write cut short by power loss) is dropped, a
 * line in the middle that does not parse or fails the owner's check is skipped, and the others
 * are kept. The bad lines are copied to `<file>.corrupt-<time>`, reported through `problems()`
 * and the log, and the file is compacted without them.
 */
import { open, readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode } from './errors.js';
import { writeFileAtomic, type StoreProblem } from './json-store.js';
import type { Logger } from './logger.js';
import { stateVersionsOf } from './state-versions.js';

export const DEFAULT_COMPACT_RATIO = 2;
export const DEFAULT_COMPACT_MIN_BYTES = 64 * 1024;

export interface AppendLogOptions<S, R> {
  /** The log file, e.g. `<data dir>/notifications.log`. */
  file: string;
  /** A new empty state: where every replay starts. */
  empty(): S;
  /**
   * Applies one record to the state. Replay passes every stored record through it, in order, so
   * a record whose target is gone (marking a deleted item) must be a no-op, not an error.
   */
  apply(state: S, record: R): void;
  /** Records that rebuild `state` from `empty()`: what compaction writes. */
  snapshot(state: S): Iterable<R>;
  /** Why a value is not a record of this log (null when it is one); replay skips such lines. */
  check(record: unknown): string | null;
  /**
   * Records for a log that does not exist yet: where a store takes over an older format. They
   * are written with the new file, atomically, so a crash leaves either no log or all of them.
   */
  initial?(): Promise<Iterable<R>>;
  log: Logger;
  /** Compact when the file is larger than this multiple of the live state (default 2)… */
  compactRatio?: number;
  /** …and larger than this many bytes (default 64 KiB), so a small log is not rewritten at every change. */
  compactMinBytes?: number;
}

export interface AppendLogStats {
  /** The log's size now. */
  file_bytes: number;
  /** The live state's size when it was last written out (at open or compaction). */
  live_bytes: number;
  /** What this process wrote to the log since opening it: appends and compactions. */
  bytes_written: number;
  records_appended: number;
  syncs: number;
  compactions: number;
}

interface PendingAppend<R> {
  records: R[];
  bytes: Buffer;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface BadLine {
  line: number;
  reason: string;
  bytes: Buffer;
}

function corruptName(fileName: string, at: Date): string {
  return `${fileName}.corrupt-${at.toISOString().replace(/[:.]/g, '-')}`;
}

export class AppendLog<S, R> {
  /** Inode of the file appended to: tells, after a failed compaction, which file is in place. */
  private ino = 0;
  /** Bytes of whole, acknowledged records in the file. */
  private size = 0;
  /** True while bytes past `size` may hold the remains of a failed write. */
  private dirty = false;
  private liveBytes = 0;
  private compactAt = 0;
  private queue: PendingAppend<R>[] = [];
  private compactWaiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private running: Promise<void> | null = null;
  private closed = false;
  private readonly found: StoreProblem[] = [];
  private readonly counters = { bytes_written: 0, records_appended: 0, syncs: 0, compactions: 0 };
  private readonly ratio: number;
  private readonly minBytes: number;

  private constructor(
    private readonly options: AppendLogOptions<S, R>,
    private readonly current: S,
  ) {
    this.ratio = options.compactRatio ?? DEFAULT_COMPACT_RATIO;
    this.minBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
  }

  /** Opens (or creates) the log and replays it; throws only when the file cannot be read or written. */
  static async open<S, R>(options: AppendLogOptions<S, R>): Promise<AppendLog<S, R>> {
    // A compaction that did not reach its rename: the log beside it is whole and is the truth.
    await rm(`${options.file}.tmp`, { force: true });
    let content: Buffer | null;
    try {
      content = await readFile(options.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      content = null;
    }
    const log = new AppendLog(options, options.empty());
    if (content === null) {
      for (const record of (await options.initial?.()) ?? []) options.apply(log.current, record);
      await log.rewrite();
      return log;
    }
    const bad = log.replay(content);
    if (bad.length > 0) await log.setAside(bad);
    // Appends go after the last whole line; an incomplete one is cut off before the first.
    const wholeLines = content.lastIndexOf(0x0a) + 1;
    const fileBytes = content.length;
    content = null; // a large log is garbage from here on, before a compaction needs as much again
    await log.useFile(wholeLines);
    log.dirty = wholeLines < fileBytes;
    log.liveBytes = log.measure(options.snapshot(log.current));
    log.compactAt = log.threshold(log.liveBytes);
    if (bad.length > 0 || fileBytes > log.compactAt) await log.compactOrWarn();
    return log;
  }

  /** The state as of the last durable record. Read it; change it only through `append`. */
  get state(): S {
    return this.current;
  }

  /**
   * Appends records; resolves once they are on disk and applied to the state. A record that
   * cannot be serialised is refused before anything is written, and a failed write rejects
   * without changing the state.
   */
  append(...records: R[]): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    let bytes: Buffer;
    try {
      bytes = this.encode(records);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ records, bytes, resolve, reject });
      this.kick();
    });
  }

  /** Writes the live state out as a new file now (it also happens by itself as the log grows). */
  compact(): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    return new Promise((resolve, reject) => {
      this.compactWaiters.push({ resolve, reject });
      this.kick();
    });
  }

  /** What replay found unreadable (lines skipped or dropped), with where they were copied. */
  problems(): readonly StoreProblem[] {
    return this.found;
  }

  stats(): AppendLogStats {
    return { file_bytes: this.size, live_bytes: this.liveBytes, ...this.counters };
  }

  /** Resolves once nothing is being written or waiting to be. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Lets queued appends finish; later appends are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private closedError(): AppError {
    return new AppError(ErrorCode.unavailable, 503, `${path.basename(this.options.file)} is closed`);
  }

  private threshold(liveBytes: number): number {
    return Math.max(this.minBytes, this.ratio * liveBytes);
  }

  /** The bytes `encode` would give, without building them: a large state is measured at every open. */
  private measure(records: Iterable<R>): number {
    let bytes = 0;
    for (const record of records) bytes += Buffer.byteLength(JSON.stringify(record)) + 1;
    return bytes;
  }

  private encode(records: Iterable<R>): Buffer {
    let text = '';
    for (const record of records) {
      const problem = this.options.check(record);
      if (problem !== null)
        throw new AppError(ErrorCode.internal, 500, `${path.basename(this.options.file)}: refusing a record that replay would skip: ${problem}`);
      text += `${JSON.stringify(record)}\n`;
    }
    return Buffer.from(text, 'utf8');
  }

  /** Applies every whole, valid line; returns the ones that were not. */
  private replay(content: Buffer): BadLine[] {
    const bad: BadLine[] = [];
    let start = 0;
    for (let line = 1; start < content.length; line++) {
      const end = content.indexOf(0x0a, start);
      if (end === -1) {
        bad.push({ line, reason: 'incomplete (a write cut short, e.g. by power loss); dropped', bytes: content.subarray(start) });
        break;
      }
      const bytes = content.subarray(start, end);
      start = end + 1;
      const reason = this.replayLine(bytes);
      if (reason !== null) bad.push({ line, reason: `${reason}; skipped`, bytes });
    }
    return bad;
  }

  private replayLine(bytes: Buffer): string | null {
    let record: unknown;
    try {
      record = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      return `not valid JSON (${(err as Error).message})`;
    }
    const problem = this.options.check(record);
    if (problem !== null) return problem;
    try {
      this.options.apply(this.current, record as R);
    } catch (err) {
      return `could not be applied (${err instanceof Error ? err.message : String(err)})`;
    }
    return null;
  }

  /** Keeps unreadable lines in a file beside the log (compaction drops them) and reports them. */
  private async setAside(bad: BadLine[]): Promise<void> {
    const fileName = path.basename(this.options.file);
    const at = new Date();
    const movedTo = corruptName(fileName, at);
    await writeFileAtomic(path.join(path.dirname(this.options.file), movedTo), Buffer.concat(bad.flatMap((b) => [b.bytes, Buffer.from('\n')])));
    const shown = bad.slice(0, 5).map((b) => `line ${b.line}: ${b.reason}`);
    if (bad.length > shown.length) shown.push(`and ${bad.length - shown.length} more`);
    const reason = shown.join('; ');
    this.found.push({ file: fileName, moved_to: movedTo, reason, at: at.toISOString() });
    this.options.log.error(`state log ${fileName} had unreadable lines (${reason}); the rest was kept, the bad lines copied to ${movedTo}`);
  }

  private kick(): void {
    this.running ??= this.drain()
      .catch((err: unknown) => {
        this.options.log.error(`writing ${path.basename(this.options.file)} failed unexpectedly: ${err instanceof Error ? err.stack : String(err)}`);
      })
      .finally(() => {
        this.running = null;
        if (this.queue.length > 0 || this.compactWaiters.length > 0) this.kick();
      });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 || this.compactWaiters.length > 0) {
      const batch = this.queue.splice(0);
      if (batch.length > 0) await this.commit(batch);
      const waiters = this.compactWaiters.splice(0);
      if (waiters.length > 0) {
        try {
          await this.rewrite();
          for (const w of waiters) w.resolve();
        } catch (err) {
          for (const w of waiters) w.reject(err);
        }
      } else if (this.size > this.compactAt) {
        await this.compactOrWarn();
      }
    }
  }

  private async compactOrWarn(): Promise<void> {
    try {
      await this.rewrite();
    } catch (err) {
      // The log stays correct, only longer; try again once it has grown by as much again.
      this.compactAt = this.threshold(this.size);
      this.options.log.warn(`could not compact ${path.basename(this.options.file)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async commit(batch: PendingAppend<R>[]): Promise<void> {
    try {
      await this.writeDurably(Buffer.concat(batch.map((p) => p.bytes)));
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    for (const p of batch) {
      this.counters.records_appended += p.records.length;
      try {
        for (const record of p.records) this.options.apply(this.current, record);
        p.resolve();
      } catch (err) {
        this.options.log.error(
          `a record of ${path.basename(this.options.file)} is on disk but could not be applied: ${err instanceof Error ? err.message : String(err)}`,
        );
        p.reject(err);
      }
    }
  }

  private async writeDurably(bytes: Buffer): Promise<void> {
    await stateVersionsOf(this.options.file)?.keepBeforeWrite(this.options.file, 'in-place');
    // Opened per write, so no descriptor outlives a write (nor a store nobody closes).
    const handle = await open(this.options.file, 'r+');
    try {
      await this.followRename(handle);
      if (this.dirty) await this.cutBack(handle);
      try {
        for (let done = 0; done < bytes.length; ) {
          const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, this.size + done);
          if (bytesWritten === 0) throw new Error(`no byte of a ${bytes.length}-byte append could be written`);
          done += bytesWritten;
          this.counters.bytes_written += bytesWritten;
        }
        await handle.datasync();
      } catch (err) {
        this.dirty = true;
        // At once if possible; otherwise the next write cuts back first (and fails if it cannot).
        await this.cutBack(handle).catch(() => undefined);
        throw err;
      }
    } finally {
      // The bytes are synced, or the error that matters is already on its way.
      await handle.close().catch(() => undefined);
    }
    this.counters.syncs++;
    this.size += bytes.length;
  }

  /**
   * A compaction whose rename went through but then failed (the directory fsync) left its new
   * file, whole, in place of the one appended to so far: appends continue after its end.
   */
  private async followRename(handle: FileHandle): Promise<void> {
    const { ino, size } = await handle.stat();
    if (ino === this.ino) return;
    this.ino = ino;
    this.size = size;
    this.dirty = false;
  }

  private async cutBack(handle: FileHandle): Promise<void> {
    await handle.truncate(this.size);
    await handle.datasync();
    this.dirty = false;
  }

  /** Writes the live state as a new file in place of the log (atomically); appends go there from then on. */
  private async rewrite(): Promise<void> {
    const snapshot = this.encode(this.options.snapshot(this.current));
    await writeFileAtomic(this.options.file, snapshot);
    this.counters.bytes_written += snapshot.length;
    this.counters.compactions++;
    this.liveBytes = snapshot.length;
    this.compactAt = this.threshold(snapshot.length);
    await this.useFile(snapshot.length);
  }

  /** Appends go to the file now at the log's path, which holds `size` good bytes. */
  private async useFile(size: number): Promise<void> {
    this.ino = (await stat(this.options.file)).ino;
    this.size = size;
    this.dirty = false;
  }
}
