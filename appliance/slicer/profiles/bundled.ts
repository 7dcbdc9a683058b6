/**
 * The catalogue we ship, read from `appliance/slicer/profiles/bundled/` in the source tree: the
 * build does not copy JSON, so compiled code (in a dist folder) walks up to the folder holding
 * package.json and reads the source folder from there.
 */
import path from 'node:path';
import { AppError, ErrorCode } from '../../common/errors.js';
import { repoRoot } from '../../common/paths.js';
import { readProfileFiles } from './profile-file.js';
import type { Profile } from './types.js';

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
  if (batch.report.skipped.length > 0) {
    const problems = batch.report.skipped.map((s) => `${path.relative(dir, s.file)}: ${s.reason}`);
    throw new AppError(ErrorCode.internal, 500, `bundled profiles are invalid: ${problems.join('; ')}`, { problems });
  }
  if (batch.profiles.length === 0) {
    throw new AppError(ErrorCode.internal, 500, `no bundled profiles found in ${dir}`);
  }
  return batch.profiles.map((p) => p.profile);
}
