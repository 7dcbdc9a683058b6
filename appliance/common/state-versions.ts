/**
 * The state a version left behind, kept for a rollback (issue 23, image/rauc/README.md): an OS
 * update may be rolled back after the new version has already written its state files, and the
 * old version must then find them as it left them, not in a format it may not read.
 *
 * `<data dir>/state-version` names the version that last ran on the data directory. When another
 * version starts, before it opens (and so before it writes) any state file:
 * - a newer one (an update) copies the state files to `versions/<old version>/`;
 * - an older one (a rollback) finds its own copy there: the newer version's files go to
 *   `versions/<newer version>/` and its copy comes back.
 * The state files are the data directory's top-level files (JSON stores, append logs,
 * config.json, keys); its folders (slicing work, printer files) are caches and uploads, not state.
 * Every copy goes through a temp file, fsync and rename, so a power cut leaves either copy whole.
 */
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fsyncPath, writeFileAtomic } from './json-store.js';
import type { Logger } from './logger.js';
import { compareVersions } from './version-order.js';

export const STATE_VERSION_FILE = 'state-version';
export const VERSIONS_DIR = 'versions';

export type StateVersionAction = 'first-start' | 'same' | 'kept' | 'restored' | 'no-copy';

export interface StateVersionResult {
  action: StateVersionAction;
  /** The version that ran before (null on a first start). */
  previous: string | null;
  /** The files copied aside (kept) or brought back (restored). */
  files: string[];
}

async function stateFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name !== STATE_VERSION_FILE && !entry.name.includes('.tmp'))
    .map((entry) => entry.name)
    .sort();
}

/** Copies `names` from `from` into a fresh `to` (replacing an older copy), durably. */
async function copyState(from: string, to: string, names: readonly string[]): Promise<void> {
  const building = `${to}.tmp`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true, mode: 0o700 });
  for (const name of names) {
    await copyFile(path.join(from, name), path.join(building, name));
    await fsyncPath(path.join(building, name), 'r+');
  }
  await fsyncPath(building, 'r');
  await rm(to, { recursive: true, force: true });
  await rename(building, to);
  await fsyncPath(path.dirname(to), 'r');
}

async function readVersion(file: string): Promise<string | null> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    return text === '' ? null : text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Keeps or restores the state files of `dataDir` for `version`; call before any store opens. */
export async function keepStateAcrossVersions(dataDir: string, version: string, log: Logger): Promise<StateVersionResult> {
  const marker = path.join(dataDir, STATE_VERSION_FILE);
  const previous = await readVersion(marker);
  const record = () => writeFileAtomic(marker, `${version}\n`);
  if (previous === version) return { action: 'same', previous, files: [] };
  if (previous === null) {
    await record();
    return { action: 'first-start', previous, files: [] };
  }
  const versions = path.join(dataDir, VERSIONS_DIR);
  const current = await stateFiles(dataDir);
  const order = compareVersions(version, previous);
  if (order === null || order > 0) {
    await copyState(dataDir, path.join(versions, previous), current);
    await record();
    log.info(`state of ${previous} kept in ${VERSIONS_DIR}/${previous}/ (${current.length} files) before ${version} writes`);
    return { action: 'kept', previous, files: current };
  }
  const own = path.join(versions, version);
  let saved: string[];
  try {
    saved = await stateFiles(own);
  } catch {
    await record();
    log.warn(`rolled back from ${previous} to ${version}, but no state of ${version} was kept: the files stay as ${previous} left them`);
    return { action: 'no-copy', previous, files: [] };
  }
  await copyState(dataDir, path.join(versions, previous), current);
  for (const name of current.filter((file) => !saved.includes(file))) await rm(path.join(dataDir, name), { force: true });
  for (const name of saved) {
    const temp = path.join(dataDir, `${name}.tmp-restore`);
    await copyFile(path.join(own, name), temp);
    await fsyncPath(temp, 'r+');
    await rename(temp, path.join(dataDir, name));
  }
  await fsyncPath(dataDir, 'r');
  await record();
  log.warn(`rolled back from ${previous} to ${version}: its state restored from ${VERSIONS_DIR}/${version}/ (${saved.length} files)`);
  return { action: 'restored', previous, files: saved };
}
