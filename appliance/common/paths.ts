/**
 * The repository (or install) root: the folder holding package.json, found by walking up from
 * this module. The build does not copy data files (bundled profiles, package.json), so compiled
 * code in dist/ reads them from there.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError, ErrorCode } from './errors.js';

let cached: string | null = null;

export function repoRoot(): string {
  if (cached) return cached;
  let dir = path.resolve(fileURLToPath(new URL('.', import.meta.url)));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) {
      cached = dir;
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new AppError(ErrorCode.internal, 500, `no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
