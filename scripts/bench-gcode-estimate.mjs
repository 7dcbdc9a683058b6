#!/usr/bin/env node
// Throughput of POST /api/gcode/estimate's work in MB/s: the report (planner, header facts) on
// G-code PrusaSlicer writes for a repository model, the bare estimator beside it, and PrusaSlicer's
// own slicing time of that model for scale (it estimates while it writes; it cannot estimate a
// file alone). Run after the build:
//   node scripts/bench-gcode-estimate.mjs [--model sponge-40mm.stl] [--file some.gcode] [--runs 3]
// The G-code is sliced once into the temp directory and reused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, process.env.PRINTYARD_DIST ?? 'dist');
const { estimateGcodeFile } = await import(join(dist, 'appliance/slicer/index.js'));
const { estimateReport } = await import(join(dist, 'appliance/dashboard/gcode-tools/estimate-report.js'));
const { writeModel } = await import(join(dist, 'test/fixtures/model-files.js'));

const { values } = parseArgs({
  options: { model: { type: 'string', default: 'sponge-40mm.stl' }, file: { type: 'string' }, runs: { type: 'string', default: '3' } },
});
const runs = Math.max(1, Number(values.runs));

function gcodeFor(model) {
  const dir = join(tmpdir(), 'printyard-bench-gcode-estimate');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${model}.gcode`);
  if (existsSync(out)) return { path: out, sliceS: null };
  const started = performance.now();
  execFileSync(
    '/usr/bin/prusa-slicer',
    ['--load', join(root, 'test/fixtures/estimate/prusaslicer-marlin2-220.ini'), '--export-gcode', '-o', out, writeModel(dir, model)],
    {
      stdio: 'ignore',
    },
  );
  return { path: out, sliceS: (performance.now() - started) / 1000 };
}

const { path, sliceS } = values.file ? { path: values.file, sliceS: null } : gcodeFor(values.model);
const bytes = statSync(path).size;
const mb = bytes / 1e6;

async function best(job) {
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await job();
    fastest = Math.min(fastest, (performance.now() - started) / 1000);
  }
  return fastest;
}

const received = { path, uploadBytes: bytes, gcodeBytes: bytes, container: 'gcode', plate: null, plates: null };
const estimatorS = await best(() => estimateGcodeFile(path));
let report;
const reportS = await best(async () => {
  report = await estimateReport(received, {});
});

console.log(`G-code: ${path} (${mb.toFixed(1)} MB, ${report.file.lines} lines), best of ${runs}`);
console.log(`estimator alone        ${(mb / estimatorS).toFixed(1).padStart(7)} MB/s  ${estimatorS.toFixed(2)} s`);
console.log(`estimate report        ${(mb / reportS).toFixed(1).padStart(7)} MB/s  ${reportS.toFixed(2)} s`);
// Not the same work (PrusaSlicer slices too), only the scale of what a user already waits for.
if (sliceS !== null)
  console.log(`PrusaSlicer slicing it ${(mb / sliceS).toFixed(1).padStart(7)} MB/s  ${sliceS.toFixed(2)} s (slicing and its estimate together)`);
const theirs = report.slicer_estimate?.total_s;
console.log(
  `print time: ours ${report.time.total_s} s, ${report.slicer?.name ?? 'the slicer'} ${theirs ?? '?'} s ` +
    `(${report.slicer_estimate?.difference_percent ?? '?'} %)`,
);
