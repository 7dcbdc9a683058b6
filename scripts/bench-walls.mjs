#!/usr/bin/env node
// Thin walls side by side (issue 18): every parametric thin part (walls and rings 0.6–2.0 mm, a
// tapered wall, L/T/O letters; test/fixtures/thin-parts.ts) sliced by our engine with classic and
// with variable-width (arachne) walls, and by PrusaSlicer 2.5 with classic walls plus gap fill and
// with its Arachne, on the bench profile. Per part and slicer it prints, as a Markdown table: the
// share of the middle layer's cross-section the extrusions cover, the widest gap left between walls
// and the share of the covered area two lines cover (test/fixtures/wall-gaps.ts), the shared
// checker's verdict and the wall time. Runs after the build.
//   node scripts/bench-walls.mjs [--parts REGEX] [--no-check] [--no-prusa]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_PROFILE, distPaths, oursCliArgs, resolveBenchConfig } from './bench/bench-profile.mjs';
import { checkGcode } from './bench/check-gcode.mjs';
import { stlBounds } from './bench/model-bounds.mjs';
import { loadPeerModules } from './bench/peer-modules.mjs';
import { runMeasured } from './bench/run-measured.mjs';
import { GCODE_CHECKER } from './bench/shared-dir.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PRUSA = '/usr/bin/prusa-slicer';
const GENERATORS = ['classic', 'arachne'];
/** Nominal flow, so that the area a move covers is the one its width asks for (the checker reads E the same way). */
const WALL_PROFILE = { ...BENCH_PROFILE, overrides: [...BENCH_PROFILE.overrides, ['filament_flow_ratio', '1']] };

function log(message) {
  process.stderr.write(`[bench-walls] ${message}\n`);
}

async function fromDist(path) {
  const file = join(root, 'dist', path);
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (npm run build)`);
  return import(pathToFileURL(file).href);
}

/** Middle-layer coverage and gap of one G-code file over a part. */
function measure(gcodePath, part, helpers, facts, shift) {
  const moves = helpers.extrusions(readFileSync(gcodePath, 'utf8'));
  const zs = [...new Set(moves.map((m) => m.z))].sort((a, b) => a - b);
  const z = zs[Math.floor(zs.length / 2)];
  const layer = moves.filter((m) => m.z === z);
  const h = facts.layerHeight;
  const at = shift ?? helpers.shiftByExtent(layer, part.bounds, h, facts.filamentDiameter);
  return helpers.layerCover(layer, { contains: part.contains, bounds: part.bounds, shift: at, height: h, filamentDiameter: facts.filamentDiameter });
}

function cell(result) {
  if (!result) return '–';
  if (result.error) return `failed (${result.error})`;
  let check = '–';
  if (result.check) check = result.check.pass ? '✓' : `✗ ${result.check.failed.join(',')}`;
  const { uncovered, maxGap, overlap } = result.cover;
  return `${(100 * (1 - uncovered)).toFixed(1)} % · ${maxGap.toFixed(2)} · ${(100 * overlap).toFixed(1)} % · ${check} · ${result.wallS.toFixed(2)}`;
}

async function main() {
  const { values: opts } = parseArgs({
    options: { parts: { type: 'string' }, 'no-check': { type: 'boolean', default: false }, 'no-prusa': { type: 'boolean', default: false } },
  });
  const { thinParts } = await fromDist('test/fixtures/thin-parts.js');
  const { toBinaryStl } = await fromDist('test/fixtures/meshes.js');
  const slicing = await fromDist('test/fixtures/slicing.js');
  const gaps = await fromDist('test/fixtures/wall-gaps.js');
  const helpers = { extrusions: slicing.extrusions, layerCover: gaps.layerCover, shiftByExtent: gaps.shiftByExtent };
  const peers = await loadPeerModules(root, 'dist');
  const cli = distPaths(root, 'dist').cli;
  const configs = {};
  for (const generator of GENERATORS) {
    const profile = { ...WALL_PROFILE, overrides: [...WALL_PROFILE.overrides, ['wall_generator', generator]] };
    configs[generator] = { profile, config: (await resolveBenchConfig(root, 'dist', profile)).config };
  }
  const facts = peers.configFacts(configs.classic.config);
  const check = !opts['no-check'] && existsSync(GCODE_CHECKER);
  const pattern = opts.parts ? new RegExp(opts.parts) : null;
  const slicers = [
    ...GENERATORS.map((g) => ({ id: `ours ${g}`, generator: g, ours: true })),
    ...(opts['no-prusa'] || !existsSync(PRUSA) ? [] : GENERATORS.map((g) => ({ id: `PrusaSlicer ${g}`, generator: g, ours: false }))),
  ];

  const workDir = mkdtempSync(join(tmpdir(), 'printyard-bench-walls-'));
  const rows = [];
  try {
    for (const part of thinParts().filter((p) => !pattern || pattern.test(p.name))) {
      const stl = join(workDir, `${part.name}.stl`);
      writeFileSync(stl, toBinaryStl(part.mesh));
      const row = { part, results: {} };
      for (const s of slicers) {
        log(`${part.name}: ${s.id}`);
        const { profile, config } = configs[s.generator];
        const output = join(workDir, `${part.name}.${s.id.replace(' ', '-')}.gcode`);
        let run;
        if (s.ours) run = runMeasured(cli, oursCliArgs(cli, stl, output, profile).slice(1), { workDir });
        else {
          const gcode = peers.peerGcode(config, peers.peerJob(config, stlBounds(readFileSync(stl)), part.name));
          const ini = join(workDir, `${part.name}.${s.generator}.ini`);
          writeFileSync(ini, peers.peerConfigs(config, gcode).prusaIni);
          run = runMeasured(PRUSA, ['--export-gcode', '--load', ini, '--output', output, stl], { workDir });
        }
        if (run.exitCode !== 0 || !existsSync(output)) {
          row.results[s.id] = { error: `exit ${run.exitCode}` };
          continue;
        }
        // Ours centres the part on the bed exactly; PrusaSlicer's placement is read from its moves.
        const shift = s.ours ? gaps.centredOnBed(config.printable_area, part.bounds) : null;
        row.results[s.id] = {
          wallS: run.wallS,
          cover: measure(output, part, helpers, facts, shift),
          check: check ? checkGcode(stl, output, facts) : null,
        };
      }
      rows.push(row);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }

  console.log(
    'Middle layer of each part: covered share of its cross-section · widest gap between walls (mm) · share covered twice · ' +
      'gcode_check · wall time (s).',
  );
  console.log(
    `Profile: ${WALL_PROFILE.printerId}, ${WALL_PROFILE.filamentId}, ${WALL_PROFILE.processId}, flow ratio 1.${check ? '' : ' No gcode_check.'}\n`,
  );
  console.log(`| part | mm | section mm² | ${slicers.map((s) => s.id).join(' | ')} |`);
  console.log(`|---|---|---|${slicers.map(() => '---').join('|')}|`);
  for (const { part, results } of rows) {
    const section = Object.values(results).find((r) => r.cover)?.cover.area ?? 0;
    console.log(`| ${part.name} | ${part.thickness.toFixed(1)} | ${section.toFixed(1)} | ${slicers.map((s) => cell(results[s.id])).join(' | ')} |`);
  }
  console.log('\nSummary (parts with a gap wider than 0.1 mm · median covered share · median wall time):');
  for (const s of slicers) {
    const done = rows.map((r) => r.results[s.id]).filter((r) => r?.cover);
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    const open = done.filter((r) => r.cover.maxGap > 0.1).length;
    const covered = med(done.map((r) => 1 - r.cover.uncovered));
    console.log(`- ${s.id}: ${open} of ${done.length} · ${(100 * covered).toFixed(1)} % · ${med(done.map((r) => r.wallS)).toFixed(2)} s`);
  }
}

await main();
