#!/usr/bin/env node
// `npm test`: installs what is missing (npm and Debian packages), builds, checks formatting and
// lint with Biome (warnings are errors), then runs every test file under test/ with node:test.
// Node 20 does not expand globs, so the files are listed here. Extra arguments filter test files
// by substring and skip the Biome check (a quick run on one area): `npm test -- mesh/stl`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, ensureDebian, ensureNpm } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function findTests(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(path));
    else if (entry.name.endsWith('.test.js')) out.push(path);
  }
  return out.sort();
}

/** Biome's formatter and linter over the tree, read-only; false (after its report) when they find anything. */
function lint() {
  const biome = join(root, 'node_modules', '.bin', 'biome');
  const colors = process.stdout.isTTY ? [] : ['--colors=off'];
  const r = spawnSync(biome, ['ci', '--error-on-warnings', '--reporter=summary', ...colors, '.'], { cwd: root, stdio: 'inherit' });
  if (r.status === 0) return true;
  process.stderr.write('[test] Biome found problems: `npm run format` fixes the formatting; see `npx biome lint .` for the rest\n');
  return false;
}

try {
  ensureNpm();
  ensureDebian();
  build();
} catch (err) {
  process.stderr.write(`[test] ${err.message}\n`);
  process.exit(1);
}

const filters = process.argv.slice(2);
if (filters.length === 0 && !lint()) process.exit(1);
const files = findTests(join(root, 'dist', 'test')).filter((f) => filters.length === 0 || filters.some((s) => relative(root, f).includes(s)));
if (files.length === 0) {
  process.stderr.write('[test] no test files matched\n');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
