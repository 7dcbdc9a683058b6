#!/usr/bin/env node
// `npm test`: installs what is missing (npm and Debian packages), builds, checks formatting and
// lint with Biome (warnings are errors) and the length of source lines, then runs every test file
// under test/ with node:test.
// Node 20 does not expand globs, so the files are listed here. Extra arguments filter test files
// by substring and skip the Biome and line-length checks (a quick run on one area):
// `npm test -- mesh/stl`.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, ensureDebian, ensureNpm } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Biome formats to this width but cannot break strings, templates, comments or test names. */
const MAX_LINE_LENGTH = 150;

/** The files under dir whose name `wanted` accepts, sorted; folders named in `skip` are not entered. */
function findFiles(dir, wanted, skip = []) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.includes(entry.name)) out.push(...findFiles(path, wanted, skip));
    } else if (wanted(entry.name)) out.push(path);
  }
  return out.sort();
}

/** Lines of the TypeScript and script sources over MAX_LINE_LENGTH characters (a `#!` first line may be longer). */
function longLines() {
  const sources = ['appliance', 'test', 'scripts'].flatMap((dir) =>
    findFiles(join(root, dir), (name) => name.endsWith('.ts') || name.endsWith('.tsx') || name.endsWith('.mjs'), ['node_modules', 'dist']),
  );
  const found = [];
  for (const file of sources) {
    for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
      const length = [...line].length; // characters (code points), not UTF-16 units or bytes
      if (length > MAX_LINE_LENGTH && !(i === 0 && line.startsWith('#!'))) found.push(`${relative(root, file)}:${i + 1}: ${length}`);
    }
  }
  return found;
}

/** Biome's formatter and linter over the tree, read-only, then the line length; false (after a report) when they find anything. */
function lint() {
  const biome = join(root, 'node_modules', '.bin', 'biome');
  const colors = process.stdout.isTTY ? [] : ['--colors=off'];
  const r = spawnSync(biome, ['ci', '--error-on-warnings', '--reporter=summary', ...colors, '.'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write('[test] Biome found problems: `npm run format` fixes the formatting; see `npx biome lint .` for the rest\n');
  }
  const long = longLines();
  if (long.length > 0) {
    process.stderr.write(`[test] lines over ${MAX_LINE_LENGTH} characters (split the string or template, rewrap the comment):\n`);
    for (const where of long) process.stderr.write(`  ${where}\n`);
  }
  return r.status === 0 && long.length === 0;
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
const tests = findFiles(join(root, 'dist', 'test'), (name) => name.endsWith('.test.js'));
const files = tests.filter((f) => filters.length === 0 || filters.some((s) => relative(root, f).includes(s)));
if (files.length === 0) {
  process.stderr.write('[test] no test files matched\n');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
