#!/usr/bin/env node
// `npm start`: installs what is missing, builds, then runs the appliance's services on their
// embedded defaults (each in its own process, stopped together on Ctrl-C or SIGTERM). Like the
// box's units, the two share a token kept beside the dashboard's state (`<data-dir>/slicer-token`,
// created on the first start): the slicer service requires it and a new config.json of the
// dashboard enables the slicer integration with it. A token the user gave the slicer is left alone.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, ensureNpm } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const SLICER_ENTRY = 'dist/appliance/slicer/service/main.js';
const DASHBOARD_ENTRY = 'dist/appliance/dashboard/main.js';

/** The arguments that make the two services share a token, or none when the options cannot be read (the service will say why). */
async function sharedTokenArgs() {
  try {
    const dashboard = await import(pathToFileURL(join(root, 'dist/appliance/dashboard/options.js')).href);
    const slicer = await import(pathToFileURL(join(root, 'dist/appliance/slicer/service/options.js')).href);
    if (slicer.loadOptions([], process.env).rest_token !== '') return { slicer: [], dashboard: [] };
    const options = dashboard.loadOptions([], process.env);
    const tokenFile = options.slicer_token_file || join(options.data_dir, 'slicer-token');
    return { slicer: ['--rest-token-file', tokenFile, '--rest-token-create'], dashboard: ['--slicer-token-file', tokenFile] };
  } catch {
    return { slicer: [], dashboard: [] };
  }
}

try {
  ensureNpm();
  build();
} catch (err) {
  process.stderr.write(`[start] ${err.message}\n`);
  process.exit(1);
}

const shared = await sharedTokenArgs();
/** The services of the appliance, by the entry point their build produces. */
const SERVICES = [
  { name: 'printyard-slicer', entry: SLICER_ENTRY, args: shared.slicer },
  { name: 'printyard-dashboard', entry: DASHBOARD_ENTRY, args: shared.dashboard },
];

const present = SERVICES.filter((s) => existsSync(join(root, s.entry)));
const missing = SERVICES.filter((s) => !present.includes(s));
for (const s of missing) process.stderr.write(`[start] ${s.name} is not part of this build yet (no ${s.entry})\n`);
if (present.length === 0) {
  process.stderr.write('[start] nothing to run; the slicing engine is available as `node dist/appliance/slicer/cli/printyard-slice.js`\n');
  process.exit(1);
}
const children = present.map((s) => {
  const child = spawn(process.execPath, [join(root, s.entry), ...s.args], { cwd: root, stdio: 'inherit' });
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
