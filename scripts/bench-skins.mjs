#!/usr/bin/env node
// Top skins on curved and stepped tops: slices the parts of test/fixtures/skin-parts.ts (made in
// code: dome, lens, dish, cone, stepped pyramids, stairs, terraces, a plate with a thin rim) with
// our engine, PrusaSlicer 2.5 and CuraEngine 4.13 on the bench profile, and prints per part and
// slicer the median wall time, the shared checker's `top_cover` verdict and its lowest layer
// share, and the top area left open as our own raster measure finds it (test/fixtures/top-cover.ts:
// mm² open one line width in from the edges of every top, and the widest open spot), as a Markdown
// table. Runs after the build; see scripts/bench/README.md.
//   node scripts/bench-skins.mjs [--parts dome,dish] [--runs N] [--json out.json] [--dist dist] [--keep]
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { distPaths, resolveBenchConfig } from './bench/bench-profile.mjs';
import { checkGcode } from './bench/check-gcode.mjs';
import { ensureCuraDefinitions } from './bench/cura-definitions.mjs';
import { loadPeerModules } from './bench/peer-modules.mjs';
import { GCODE_CHECKER } from './bench/shared-dir.mjs';
import { peerJob, slicers } from './bench/slicers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SLICERS = [
  ['ours', 'ours'],
  ['prusa', 'PrusaSlicer 2.5'],
  ['cura', 'CuraEngine 4.13'],
];

function log(message) {
  process.stderr.write(`[bench-skins] ${message}\n`);
}

function options() {
  const { values } = parseArgs({
    options: {
      parts: { type: 'string' },
      runs: { type: 'string', default: '1' },
      json: { type: 'string' },
      dist: { type: 'string', default: 'dist' },
      keep: { type: 'boolean', default: false },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
  return {
    ...values,
    runs,
    parts: values.parts
      ?.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1];

/** One slicer's output judged: the checker's verdict (when the shared folder is there) and our raster measure. */
function judge(mesh, stlPath, gcodePath, facts, topCover) {
  const cover = topCover(mesh, readFileSync(gcodePath, 'utf8'), { filamentDiameter: facts.filamentDiameter, cell: 0.05 });
  const check = existsSync(GCODE_CHECKER) ? checkGcode(stlPath, gcodePath, facts) : undefined;
  return {
    topCover: topCoverVerdict(check),
    topCoverMin: check?.summary?.top_cover_min ?? null,
    failedChecks: check?.failed ?? [],
    uncoveredMm2: cover.uncovered,
    coreMm2: cover.core,
    widestGapMm: cover.widestGap,
  };
}

function topCoverVerdict(check) {
  if (!check) return 'no checker';
  if (!check.summary) return `checker: ${check.failed.join(', ')}`;
  return check.failed.includes('top_cover') ? 'FAIL' : 'pass';
}

function row(part, name, r) {
  if (!r.ok) return `| ${part} | ${name} | failed: ${r.error} | | | | |`;
  const min = r.topCoverMin === null ? '–' : r.topCoverMin.toFixed(3);
  const open = `${r.uncoveredMm2.toFixed(2)} of ${r.coreMm2.toFixed(0)}`;
  return `| ${part} | ${name} | ${r.wallS.toFixed(2)} | ${r.topCover} | ${min} | ${open} | ${r.widestGapMm.toFixed(2)} |`;
}

async function main() {
  const opts = options();
  const paths = distPaths(root, opts.dist);
  const fixtures = (name) => import(pathToFileURL(join(root, opts.dist, 'test', 'fixtures', `${name}.js`)).href);
  if (!existsSync(paths.cli)) throw new Error(`${paths.cli} is missing: build first (npm run build)`);
  accessSync(paths.cli, constants.X_OK);
  const [{ SKIN_PARTS }, { toBinaryStl }, { topCover }] = await Promise.all([fixtures('skin-parts'), fixtures('meshes'), fixtures('top-cover')]);
  const parts = opts.parts ? SKIN_PARTS.filter((p) => opts.parts.includes(p.name)) : SKIN_PARTS;
  const unknown = (opts.parts ?? []).filter((name) => !SKIN_PARTS.some((p) => p.name === name));
  if (unknown.length) throw new Error(`unknown parts: ${unknown.join(', ')} (known: ${SKIN_PARTS.map((p) => p.name).join(', ')})`);
  const { config, source } = await resolveBenchConfig(root, opts.dist);
  const peers = await loadPeerModules(root, opts.dist);
  const facts = peers.configFacts(config);
  const definition = ensureCuraDefinitions(root);
  console.log(`config: ${source}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `${opts.runs} run(s) per slicer and part, median wall time; checker: ${existsSync(GCODE_CHECKER) ? GCODE_CHECKER : 'absent (no verdict column)'}`,
  );
  const workDir = mkdtempSync(join(tmpdir(), 'printyard-bench-skins-'));
  const results = [];
  try {
    const run = slicers({ paths, oursBuilt: true, definition, facts, config, workDir, peers });
    const lines = ['| part | slicer | wall s | top_cover | lowest top share | open top mm² | widest open mm |', '|---|---|---|---|---|---|---|'];
    for (const part of parts) {
      const mesh = part.mesh();
      const stlPath = join(workDir, `${part.name}.stl`);
      writeFileSync(stlPath, toBinaryStl(mesh));
      const job = peerJob(stlPath, part.name, workDir, config, peers);
      const result = { part: part.name, what: part.what, slicers: {} };
      for (const [id, name] of SLICERS) {
        const output = join(workDir, `${part.name}.${id}.gcode`);
        const runs = [];
        for (let i = 0; i < opts.runs; i++) {
          log(`${part.name}: ${id} run ${i + 1}/${opts.runs}`);
          const outcome = run[id](job, output);
          runs.push(outcome);
          if (!outcome.ok) break;
        }
        const failed = runs.find((r) => !r.ok);
        const r = failed ?? { ok: true, wallS: median(runs.map((x) => x.wallS)), ...judge(mesh, stlPath, output, facts, topCover) };
        result.slicers[id] = r;
        lines.push(row(part.name, name, r));
      }
      results.push(result);
    }
    console.log(`\nparts: ${parts.map((p) => `${p.name} (${p.what})`).join('; ')}\n`);
    console.log(lines.join('\n'));
    if (opts.json)
      writeFileSync(opts.json, `${JSON.stringify({ date: new Date().toISOString(), runs: opts.runs, configSource: source, results }, null, 2)}\n`);
  } finally {
    if (opts.keep) log(`outputs kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  log(err.message);
  process.exit(1);
});
