// Where the development machine keeps what is not ours to ship: the corpus of real models and
// the G-code checker, in the `shared` folder beside the repository. A clone from a forge has no
// such folder: benchmarks then need --corpus, and the tests that read it say they skipped.
// PRINTYARD_SHARED_DIR points elsewhere.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const SHARED_DIR = resolve(process.env.PRINTYARD_SHARED_DIR || join(repositoryRoot, '..', 'shared'));
export const CORPUS_DIR = join(SHARED_DIR, 'corpus');
export const GCODE_CHECKER = join(SHARED_DIR, 'tools', 'gcode_check.py');

/** A corpus model's path. */
export function corpusModel(file) {
  return join(CORPUS_DIR, file);
}

/** Why something that needs the given shared files cannot run here, or '' when they are all present. */
export function sharedMissing(...paths) {
  const missing = paths.filter((path) => !existsSync(path));
  return missing.length ? `needs ${missing.join(', ')} (the shared folder beside the repository; set PRINTYARD_SHARED_DIR)` : '';
}
