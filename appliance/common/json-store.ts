/**
 * State in JSON files, through lowdb with an adapter that survives power loss: every write goes to
 * a temporary file that is fsynced, renamed over the real one, and then the directory is fsynced
 * so the rename itself is durable (lowdb's own writer renames without fsync; an SD card that
 * loses power then holds an empty or torn file).
 *
 * Writes are serialised per file and coalesced: while one is on disk, later calls share one
 * follow-up write of the newest data, and each call resolves only once its data is durable.
 * `settled()` waits for every store's writes, for a clean stop.
 *
 * A file that does not parse (or fails the caller's shape check) is never silently emptied: it
 * is moved aside as `<name>.corrupt-<time>`, reported through `problems()` and the log, and the
 * store starts from its defaults — or, when the caller can salvage the valid part of a file that
 * fails its shape check (one bad record among good ones), from that part, written back at once.
 */
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { fsyncPath, replaceFileDurably } from './atomic-file.js';
import { AppError, ErrorCode } from './errors.js';
import type { Logger } from './logger.js';
import { stateVersionsOf } from './state-versions.js';

export interface StoreProblem {
  /** The store's file name, relative to the data directory. */
  file: string;
  /** Where the unreadable file was moved, relative to the data directory. */
  moved_to: string;
  reason: string;
  at: string;
}

/** Returns a reason when the parsed data is not a valid state for this store. */
export type ShapeCheck = (data: unknown) => string | null;

/**
 * Keeps the usable part of parsed data that failed its ShapeCheck: the state to start from and
 * what was kept (for the report, e.g. "2 of 3 users"), or null when nothing is worth keeping.
 */
export type Salvage<T> = (data: unknown) => { data: T; kept: string } | null;

export { fsyncPath };

/**
 * Writes `text` to `file` so that after a crash the file holds either the old or the new text.
 * Under a data directory whose state versions are kept (state-versions.ts), the file as the
 * previous version left it is kept first.
 */
export async function writeFileAtomic(file: string, text: string | Buffer): Promise<void> {
  await stateVersionsOf(file)?.keepBeforeWrite(file, 'replace');
  await replaceFileDurably(file, text);
}

interface PendingWrite {
  text: string;
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class AtomicJsonFile<T> implements Adapter<T> {
  private running: Promise<void> | null = null;
  private pending: PendingWrite | null = null;
  /** True when the last read returned salvaged data, which is not on disk yet. */
  salvaged = false;

  constructor(
    readonly file: string,
    private readonly onCorrupt: (reason: string, kept: string | null) => Promise<void>,
    private readonly check: ShapeCheck = () => null,
    private readonly salvage?: Salvage<T>,
  ) {}

  async read(): Promise<T | null> {
    this.salvaged = false;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      await this.onCorrupt(text.trim() === '' ? 'the file is empty' : `not valid JSON: ${(err as Error).message}`, null);
      return null;
    }
    const problem = this.check(data);
    if (problem !== null) {
      const part = this.salvage?.(data) ?? null;
      await this.onCorrupt(problem, part?.kept ?? null);
      this.salvaged = part !== null;
      return part?.data ?? null;
    }
    return data as T;
  }

  /** Serialises now (later mutations of `data` do not leak into this write) and writes durably. */
  write(data: T): Promise<void> {
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (this.pending) {
      this.pending.text = text;
      return this.pending.promise;
    }
    if (!this.running) return this.start(text);
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.pending = { text, promise, resolve, reject };
    return promise;
  }

  /** Resolves once no write of this file is on disk or queued (whether they succeeded or not). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  private start(text: string): Promise<void> {
    const run = writeFileAtomic(this.file, text);
    this.running = run;
    const next = (): void => {
      this.running = null;
      const pending = this.pending;
      if (!pending) return;
      this.pending = null;
      this.start(pending.text).then(pending.resolve, pending.reject);
    };
    run.then(next, next);
    return run;
  }
}

export type JsonStore<T> = Low<T>;

/** The data directory's JSON stores, and what went wrong reading them. */
export class JsonStores {
  private readonly found: StoreProblem[] = [];
  private readonly files: { idle(): Promise<void> }[] = [];

  constructor(
    readonly dir: string,
    private readonly log: Logger,
  ) {}

  /**
   * Opens `<dir>/<name>.json`, starting from a copy of `defaults` when it is missing or corrupt
   * (or from what `salvage` keeps of a file that fails `check`).
   * Mutate `store.data`, then `await store.write()` (or use `store.update(fn)`).
   */
  async open<T extends object>(name: string, defaults: T, check?: ShapeCheck, salvage?: Salvage<T>): Promise<JsonStore<T>> {
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) throw new AppError(ErrorCode.internal, 500, `bad store name ${JSON.stringify(name)}`);
    const fileName = `${name}.json`;
    const file = path.join(this.dir, fileName);
    const adapter = new AtomicJsonFile<T>(file, (reason, kept) => this.moveAside(fileName, reason, kept), check, salvage);
    const store = new Low<T>(adapter, structuredClone(defaults));
    await store.read();
    // The original was moved aside: without this write a restart would find no file at all.
    if (adapter.salvaged) await store.write();
    this.files.push(adapter);
    return store;
  }

  /** Has `settled()` also wait for another writer in the data directory (an append-only log). */
  track(writer: { idle(): Promise<void> }): void {
    this.files.push(writer);
  }

  /**
   * Resolves once every store's writes are on disk, including ones nobody awaits (a key's last
   * use): a service awaits this when it stops, so it neither exits nor lets its data directory be
   * moved or removed with a write half done.
   */
  async settled(): Promise<void> {
    await Promise.all(this.files.map((file) => file.idle()));
  }

  problems(): readonly StoreProblem[] {
    return this.found;
  }

  private async moveAside(fileName: string, problem: string, kept: string | null): Promise<void> {
    const at = new Date();
    const movedTo = `${fileName}.corrupt-${at.toISOString().replace(/[:.]/g, '-')}`;
    await rename(path.join(this.dir, fileName), path.join(this.dir, movedTo));
    await fsyncPath(this.dir, 'r');
    const reason = kept === null ? problem : `${problem}; kept the valid part (${kept})`;
    this.found.push({ file: fileName, moved_to: movedTo, reason, at: at.toISOString() });
    const outcome = kept === null ? 'starting from defaults' : `starting from the valid part (${kept})`;
    this.log.error(`state file ${fileName} is unreadable (${problem}); moved aside to ${movedTo}, ${outcome}`);
  }
}
