/** The build's version, from package.json at the repository root. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

let cached: string | null = null;

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
