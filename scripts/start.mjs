#!/usr/bin/env node
// `npm start`: installs what is missing, builds, then runs the appliance's services on their
// embedded defaults (each in its own process, stopped together on Ctrl-C or SIGTERM).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, ensureNpm } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The services of the appliance, by the entry point their build produces. */
const SERVICES = [
  { name: 'printyard-slicer', entry: 'dist/appliance/slicer/service/main.js' },
  { name: 'printyard-dashboard', entry: 'dist/appliance/dashboard/main.js' },
];

try {
  ensureNpm();
  build();
} catch (err) {
  process.stderr.write(`[start] ${err.message}\n`);
  process.exit(1);
}

const present = SERVICES.filter((s) => existsSync(join(root, s.entry)));
const missing = SERVICES.filter((s) => !present.includes(s));
for (const s of missing) process.stderr.write(`[start] ${s.name} is not part of this build yet (no ${s.entry})\n`);
if (present.length === 0) {
  process.stderr.write('[start] nothing to run; the slicing engine is available as `node dist/appliance/slicer/cli/printyard-slice.js`\n');
  process.exit(1);
}
const children = present.map((s) => {
  const child = spawn(process.execPath, [join(root, s.entry)], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    process.stderr.write(`[start] ${s.name} exited (${signal ?? code})\n`);
    stopAll(code ?? 1);
  });
  return child;
});
let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exitCode = code;
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stopAll(0));
