/**
 * State that survives a rollback. An update may change the format of state files, and a box whose
 * new version fails its health gate boots the old version again (A/B slots): that version must
 * find its state as it left it, not as the new version rewrote it.
 *
 * So the first write of each state file by a new version keeps the file as the previous version
 * left it, in `versions/<previous>/<path>` (a hard link when the write replaces the file, a copy
 * when it appends in place; "absent" when the file did not exist). `state-version.json` names
 * the version that writes the directory now, the one it came from and what was kept. When the
 * previous version starts again it puts every kept file back (and moves the newer version's
 * files aside to `versions/<newer>/`, so nothing is deleted). Each step is a rename, so a power
 * cut in the middle is finished at the next start.
 *
 * A directory without `state-version.json` (a new box, or state from before this module) starts
 * its record without a previous version: nothing is kept until the next update.
 */
import { copyFile, link, mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fsyncPath, replaceFileDurably } from './atomic-file.js';
import type { Logger } from './logger.js';
import { pathExists } from './path-exists.js';

export const STATE_VERSION_FILE = 'state-version.json';
export const KEPT_VERSIONS_DIR = 'versions';

/** How a write changes a file: replaced by a rename (keep a link) or written in place (keep a copy). */
export type WriteKind = 'replace' | 'in-place';

interface StateVersionRecord {
  /** The version that writes this directory now. */
  version: string;
  /** The version whose files are kept in `versions/<from>/`, null when none is. */
  from: string | null;
  /** Each kept file (relative path) and whether it existed before the new version wrote it. */
  kept: Record<string, 'kept' | 'absent'>;
  since: string;
}

const open = new Map<string, StateVersions>();

/** The state versions of the data directory holding `file`, when one is open. */
export function stateVersionsOf(file: string): StateVersions | null {
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    const found = open.get(dir);
    if (found) return found;
    if (path.dirname(dir) === dir) return null;
  }
}

function isRecord(data: unknown): data is StateVersionRecord {
  const r = data as StateVersionRecord;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.version === 'string' &&
    (r.from === null || typeof r.from === 'string') &&
    typeof r.kept === 'object' &&
    r.kept !== null &&
    Object.values(r.kept).every((v) => v === 'kept' || v === 'absent')
  );
}

/** Moves `from` to `to` (replacing it), making `to`'s folder first. */
async function moveReplacing(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
  await rename(from, to);
  await fsyncPath(path.dirname(to), 'r');
}

export class StateVersions {
  private readonly keeping = new Map<string, Promise<void>>();
  private recordWrite: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private record: StateVersionRecord,
    private readonly log: Logger,
  ) {}

  /**
   * Opens the record of `dir` for the running `version`: puts the kept files back when this is the
   * version the directory was updated from (a rollback), starts a new record when it is another.
   * Until `close()`, writes through json-store and append-log under `dir` keep files first.
   */
  static async open(dir: string, version: string, log: Logger): Promise<StateVersions> {
    const root = path.resolve(dir);
    const file = path.join(root, STATE_VERSION_FILE);
    let found: StateVersionRecord | null = null;
    try {
      const data: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (isRecord(data)) found = data;
      else log.warn(`${STATE_VERSION_FILE} is not a state version record; starting a new one`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        log.warn(`${STATE_VERSION_FILE} is unreadable (${(err as Error).message}); starting a new one`);
    }
    const versions = new StateVersions(root, found ?? { version, from: null, kept: {}, since: new Date().toISOString() }, log);
    if (found === null) await versions.save();
    else if (found.version !== version) {
      if (found.from === version) await versions.rollBack();
      else await versions.startFrom(found.version, version);
    }
    open.set(root, versions);
    return versions;
  }

  /** The version writing the directory and the one whose files are kept. */
  get state(): { version: string; from: string | null; kept: number } {
    return { version: this.record.version, from: this.record.from, kept: Object.keys(this.record.kept).length };
  }

  close(): void {
    if (open.get(this.dir) === this) open.delete(this.dir);
  }

  /** Keeps `file` as the previous version left it, once per file, before the new version writes it. */
  keepBeforeWrite(file: string, kind: WriteKind): Promise<void> {
    const from = this.record.from;
    const rel = path.relative(this.dir, path.resolve(file));
    if (from === null || rel in this.record.kept || rel === STATE_VERSION_FILE || rel.split(path.sep)[0] === KEPT_VERSIONS_DIR) {
      return Promise.resolve();
    }
    let keeping = this.keeping.get(rel);
    if (!keeping) {
      keeping = this.keep(rel, from, kind).finally(() => this.keeping.delete(rel));
      this.keeping.set(rel, keeping);
    }
    return keeping;
  }

  private async keep(rel: string, from: string, kind: WriteKind): Promise<void> {
    const source = path.join(this.dir, rel);
    const target = path.join(this.dir, KEPT_VERSIONS_DIR, from, rel);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // A copy left by a start that lost power before its record was written is of the same file.
    await rm(target, { force: true });
    let outcome: 'kept' | 'absent' = 'kept';
    try {
      if (kind === 'replace') await link(source, target).catch((err: NodeJS.ErrnoException) => this.copyInstead(err, source, target));
      else await this.copyDurably(source, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      outcome = 'absent';
    }
    if (outcome === 'kept') await fsyncPath(path.dirname(target), 'r');
    this.record.kept[rel] = outcome;
    await this.save();
  }

  private async copyInstead(err: NodeJS.ErrnoException, source: string, target: string): Promise<void> {
    // Hard links are refused on some file systems (FAT, some network mounts).
    if (err.code !== 'EPERM' && err.code !== 'EXDEV' && err.code !== 'ENOTSUP') throw err;
    await this.copyDurably(source, target);
  }

  private async copyDurably(source: string, target: string): Promise<void> {
    await copyFile(source, target);
    await fsyncPath(target, 'r+');
  }

  /** The running version is the one the directory was updated from: its kept files go back. */
  private async rollBack(): Promise<void> {
    const { version: newer, from: older, kept } = this.record;
    if (older === null) return;
    for (const [rel, outcome] of Object.entries(kept)) {
      const current = path.join(this.dir, rel);
      const keptFile = path.join(this.dir, KEPT_VERSIONS_DIR, older, rel);
      if (outcome === 'kept' && !(await pathExists(keptFile))) continue;
      if (await pathExists(current)) await moveReplacing(current, path.join(this.dir, KEPT_VERSIONS_DIR, newer, rel));
      if (outcome === 'kept') await moveReplacing(keptFile, current);
    }
    this.log.warn(
      `state written by version ${newer} set aside in ${KEPT_VERSIONS_DIR}/${newer}/; ${Object.keys(kept).length} file(s) back as ${older} left them`,
    );
    this.record = { version: older, from: null, kept: {}, since: new Date().toISOString() };
    await this.save();
  }

  /** Another version than the directory's: keep its files on first write, dropping older copies. */
  private async startFrom(previous: string, version: string): Promise<void> {
    await rm(path.join(this.dir, KEPT_VERSIONS_DIR), { recursive: true, force: true });
    this.log.info(`state of version ${previous} is kept in ${KEPT_VERSIONS_DIR}/${previous}/ as version ${version} first writes it`);
    this.record = { version, from: previous, kept: {}, since: new Date().toISOString() };
    await this.save();
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify(this.record, null, 2)}\n`;
    this.recordWrite = this.recordWrite.catch(() => undefined).then(() => replaceFileDurably(path.join(this.dir, STATE_VERSION_FILE), text));
    return this.recordWrite;
  }
}
