/**
 * The boundaries the folder layout promises, checked on the sources (type-only imports leave no
 * trace in the build): the dashboard reaches the slicer only through its public entry point,
 * `appliance/slicer/index.ts`, which exports nothing that no one outside the slicer imports; and
 * the slicer knows nothing of the dashboard.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SLICER = 'appliance/slicer/';
const DASHBOARD = 'appliance/dashboard/';
const SLICER_INDEX = 'appliance/slicer/index.ts';

interface Import {
  /** The importing file, relative to the repository root. */
  file: string;
  /** The imported file, relative to the repository root, with `.js` read as the `.ts` it is built from. */
  target: string;
  /** The names it takes (empty for `import * as`, side-effect imports and `import()`). */
  names: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')` with a relative path. */
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?([^'";]*?)\s*from\s*'(\.[^']*)'|(?:^|[\s;])import\s*(?:\(\s*)?'(\.[^']*)'/g;

function namesOf(clause: string): string[] {
  const braces = /\{([^}]*)\}/.exec(clause);
  if (braces === null) return [];
  return braces[1]
    .split(',')
    .map(
      (n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0],
    )
    .filter(Boolean);
}

function importsOf(file: string): Import[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const target = path.posix.join(path.posix.dirname(file), m[2] ?? m[3]).replace(/\.js$/, '.ts');
    return { file, target, names: m[2] === undefined ? [] : namesOf(m[1]) };
  });
}

const imports = sourceFiles('appliance').flatMap(importsOf);

function listed(found: Import[]): string {
  return found.map((i) => `${i.file} -> ${i.target}`).join('\n');
}

test('the import lines are found: the dashboard imports the slicer, the slicer imports common code', () => {
  assert.ok(imports.some((i) => i.file.startsWith(DASHBOARD) && i.target.startsWith(SLICER)));
  assert.ok(imports.some((i) => i.file.startsWith(SLICER) && i.target.startsWith('appliance/common/')));
});

test('the dashboard imports the slicer only through appliance/slicer/index.ts', () => {
  const inside = imports.filter((i) => i.file.startsWith(DASHBOARD) && i.target.startsWith(SLICER) && i.target !== SLICER_INDEX);
  assert.equal(listed(inside), '', 'import from appliance/slicer/index.ts instead (export what is needed there)');
});

test('the slicer imports nothing of the dashboard', () => {
  const back = imports.filter((i) => i.file.startsWith(SLICER) && i.target.startsWith(DASHBOARD));
  assert.equal(listed(back), '');
});

test('appliance/slicer/index.ts exports only what is imported from outside the slicer', () => {
  const exported = imports.filter((i) => i.file === SLICER_INDEX).flatMap((i) => i.names);
  const used = new Set(imports.filter((i) => i.target === SLICER_INDEX && !i.file.startsWith(SLICER)).flatMap((i) => i.names));
  assert.deepEqual(
    exported.filter((name) => !used.has(name)),
    [],
  );
});
