#!/usr/bin/env node
// Checks the G-code reference's data file (every entry has its fields, codes unique per firmware,
// categories and firmwares from the fixed lists) with the rules the dashboard loads it by.
// Run after the build: `node scripts/check-gcode-reference.mjs [file]` (default: the repository's).
// Exit status 1 and one line per problem when it is not sound.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, process.env.PRINTYARD_DIST ?? 'dist');
const { checkReference } = await import(join(dist, 'appliance/dashboard/gcode-tools/reference-check.js'));
const { REFERENCE_FILE } = await import(join(dist, 'appliance/dashboard/gcode-tools/reference.js'));

const file = process.argv[2] ?? join(root, REFERENCE_FILE);
let doc;
try {
  doc = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.error(`${file}: ${err.message}`);
  process.exit(1);
}
const problems = checkReference(doc);
for (const problem of problems) console.error(`${file}: ${problem}`);
if (problems.length > 0) process.exit(1);
const byFirmware = {};
for (const c of doc.commands) for (const f of c.firmware) byFirmware[f] = (byFirmware[f] ?? 0) + 1;
console.log(
  `${file}: ${doc.commands.length} entries, sound (${Object.entries(byFirmware)
    .map(([f, n]) => `${f} ${n}`)
    .join(', ')})`,
);
