/**
 * The catalogue we ship, read from `appliance/slicer/profiles/bundled/` in the source tree: the
 * build does not copy JSON, so compiled code (in a dist folder) walks up to the folder holding
 * package.json and reads the source folder from there.
 */
import path from 'node:path';
import { AppError, ErrorCode } from '../../common/errors.js';
import { repoRoot } from '../../common/paths.js';
import { parseProfileRecords, readProfileFileRecords, readProfileFiles } from './profile-file.js';
import { emptyReport, type Profile, type ProfileBatch } from './types.js';

const BUNDLED_FROM_ROOT = path.join('appliance', 'slicer', 'profiles', 'bundled');

export function bundledProfilesDir(): string {
  return path.join(repoRoot(), BUNDLED_FROM_ROOT);
}

let loading: Promise<readonly Profile[]> | undefined;

/**
 * Every bundled profile, read once per process (catalogues never modify profiles, so they share
 * them). A malformed bundled file is our bug, so it fails loudly.
 */
export function loadBundledProfiles(): Promise<readonly Profile[]> {
  loading ??= readBundled().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function readBundled(): Promise<readonly Profile[]> {
  const dir = bundledProfilesDir();
  const batch = await readProfileFiles(dir, 'bundled');
  return checkedBundled(dir, batch, batch.profiles.length);
}

/**
 * The bundled profiles with these ids and those they inherit from, for a process that slices once
 * (the command line). Every file is read, but only these records are checked: checking all of
 * them took 5 of the 8 ms the catalogue took to load. A malformed record among them fails as in
 * `loadBundledProfiles`; an id that is not bundled is left out, and the catalogue then calls it
 * unknown. The rest of the catalogue is checked by its tests, and by every other caller.
 */
export async function loadBundledProfilesFor(ids: readonly string[]): Promise<readonly Profile[]> {
  const dir = bundledProfilesDir();
  const batch: ProfileBatch = { profiles: [], report: emptyReport() };
  const byId = new Map<string, { file: string; record: Record<string, unknown> }>();
  for (const read of await readProfileFileRecords(dir)) {
    if ('error' in read) {
      batch.report.skipped.push({ file: read.file, reason: read.error });
      continue;
    }
    for (const record of read.records) {
      if (typeof record !== 'object' || record === null) continue;
      const id = (record as Record<string, unknown>).id;
      if (typeof id === 'string' && !byId.has(id)) byId.set(id, { file: read.file, record: record as Record<string, unknown> });
    }
  }
  const taken = new Set<string>();
  for (const queue = [...ids]; queue.length > 0; ) {
    const id = queue.pop() as string;
    const found = byId.get(id);
    if (found === undefined || taken.has(id)) continue;
    taken.add(id);
    parseProfileRecords(found.file, [found.record], 'bundled', batch);
    if (typeof found.record.inherits === 'string') queue.push(found.record.inherits);
  }
  return checkedBundled(dir, batch, byId.size);
}

/** The batch's profiles; fails when a record is malformed or the folder holds none (`recordsFound` is 0). */
function checkedBundled(dir: string, batch: ProfileBatch, recordsFound: number): readonly Profile[] {
  if (batch.report.skipped.length > 0) {
    const problems = batch.report.skipped.map((s) => `${path.relative(dir, s.file)}: ${s.reason}`);
    throw new AppError(ErrorCode.internal, 500, `bundled profiles are invalid: ${problems.join('; ')}`, { problems });
  }
  if (recordsFound === 0) {
    throw new AppError(ErrorCode.internal, 500, `no bundled profiles found in ${dir}`);
  }
  return batch.profiles.map((p) => p.profile);
}
