#!/usr/bin/env node
// `npm run bench:slice`: slices every model of the corpus with our engine, PrusaSlicer 2.5 and
// CuraEngine 4.13 on the same settings, side by side (per model: ours, Prusa, Cura, repeated
// --runs times), and prints per model the median wall time, peak RSS, layers and estimates, our
// ratios to each peer, then the PASS/FAIL summary. Runs after the build; see scripts/bench/README.md.
//   node scripts/bench-slice.mjs [--models a,b] [--runs N] [--json out.json]
//        [--dist dist] [--corpus DIR] [--keep] [--no-check] [--large] [--workers N]
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { distPaths, resolveBenchConfig } from './bench/bench-profile.mjs';
import { checkGcode } from './bench/check-gcode.mjs';
import { ensureCuraDefinitions } from './bench/cura-definitions.mjs';
import { loadPeerModules } from './bench/peer-modules.mjs';
import { LARGE_MODELS, largeModels } from './bench/large-models.mjs';
import { formatModelTable, summarise, summariseRuns } from './bench/report.mjs';
import { CORPUS_DIR, GCODE_CHECKER } from './bench/shared-dir.mjs';
import { peerJob, slicers } from './bench/slicers.mjs';
import { threeMfToStl } from './bench/threemf-to-stl.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

function options() {
  const { values } = parseArgs({
    options: {
      models: { type: 'string' },
      runs: { type: 'string', default: '3' },
      json: { type: 'string' },
      dist: { type: 'string', default: 'dist' },
      corpus: { type: 'string', default: CORPUS_DIR },
      keep: { type: 'boolean', default: false },
      'no-check': { type: 'boolean', default: false },
      large: { type: 'boolean', default: false },
      workers: { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 0))
    throw new Error(`--workers must be an integer ≥ 0, got ${values.workers}`);
  return {
    ...values,
    runs,
    workers,
    models: values.models
      ?.split(',')
      .map((m) => m.trim())
      .filter(Boolean),
  };
}

const named = (file, wanted) => wanted.some((w) => file === w || file.replace(/\.\w+$/, '') === w);

/**
 * Corpus models, smallest file first, then with --large the generated ones (`large-models.mjs`);
 * `wanted` matches a file name with or without extension, of either set.
 */
function modelNames(corpus, wanted, large) {
  const files = readdirSync(corpus)
    .filter((f) => /\.(stl|3mf)$/i.test(f))
    .sort((a, b) => statSync(join(corpus, a)).size - statSync(join(corpus, b)).size);
  const extra = large ? LARGE_MODELS : [];
  if (!wanted) return { files, extra };
  const unknown = wanted.filter((w) => ![...files, ...extra].some((f) => named(f, [w])));
  if (unknown.length > 0) throw new Error(`not in ${corpus}${large ? ' nor a --large model' : ''}: ${unknown.join(', ')}`);
  return { files: files.filter((f) => named(f, wanted)), extra: extra.filter((f) => named(f, wanted)) };
}

/**
 * One model as every slicer gets it: the STL (the model itself, or a 3MF's build items converted
 * to one STL) and the peers' settings with the custom G-code rendered for this model.
 */
function prepareJob(source, workDir, config, peers) {
  const file = basename(source);
  const base = basename(file, extname(file));
  let path = source;
  if (extname(file).toLowerCase() === '.3mf') {
    path = join(workDir, `${base}.stl`);
    writeFileSync(path, threeMfToStl(readFileSync(source)));
  }
  return peerJob(path, base, workDir, config, peers);
}

function benchModel(file, job, run, opts, workDir, facts) {
  const base = basename(file, extname(file));
  const result = { model: file, slicers: {} };
  const runs = { ours: [], prusa: [], cura: [] };
  const errors = {};
  for (let i = 0; i < opts.runs; i++) {
    for (const id of ['ours', 'prusa', 'cura']) {
      if (!run[id] || errors[id]) continue;
      log(`${file}: ${id} run ${i + 1}/${opts.runs}`);
      const outcome = run[id](job, join(workDir, `${base}.${id}.gcode`));
      if (outcome.ok) runs[id].push(outcome);
      else errors[id] = outcome.error;
    }
  }
  for (const id of ['ours', 'prusa', 'cura']) {
    if (!run[id]) result.slicers[id] = { status: 'not built' };
    else if (errors[id]) result.slicers[id] = { status: 'failed', error: errors[id] };
    else {
      const check = opts['no-check'] || !existsSync(GCODE_CHECKER) ? undefined : checkGcode(job.path, join(workDir, `${base}.${id}.gcode`), facts);
      result.slicers[id] = { status: 'ok', summary: summariseRuns(runs[id]), runs: runs[id], check };
    }
  }
  return result;
}

async function main() {
  const opts = options();
  const corpus = resolve(opts.corpus);
  const { files, extra } = modelNames(corpus, opts.models, opts.large);
  const paths = distPaths(root, opts.dist);
  const oursBuilt = existsSync(paths.cli);
  if (oursBuilt) {
    try {
      accessSync(paths.cli, constants.X_OK);
    } catch {
      throw new Error(`${paths.cli} is not executable: build with npm run build, which marks the commands executable`);
    }
  }
  const { config, source } = await resolveBenchConfig(root, opts.dist);
  const peers = await loadPeerModules(root, opts.dist);
  const facts = peers.configFacts(config);
  const definition = ensureCuraDefinitions(root);

  console.log(`config: ${source}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${opts.runs} run(s) per slicer, medians`,
  );
  if (!oursBuilt) console.log(`ours: not built (${paths.cli} is missing)`);
  if (opts.workers !== undefined) console.log(`ours: --workers ${opts.workers} (the engine's own choice otherwise)`);

  const workDir = mkdtempSync(join(tmpdir(), 'printyard-bench-'));
  try {
    const run = slicers({ paths, oursBuilt, definition, facts, config, workDir, peers, oursWorkers: opts.workers });
    const generated = largeModels(extra, { workDir, cacheDir: join(root, '.cache', 'bench-models'), log });
    const sources = [
      ...files.map((file) => ({ file, path: join(corpus, file), corpus: true })),
      ...generated.map((m) => ({ file: m.name, path: m.path, corpus: false })),
    ];
    const jobs = sources.map((s) => [s.file, prepareJob(s.path, workDir, config, peers), s.corpus]);
    for (const caveat of jobs[0][1].caveats) console.log(`caveat: ${caveat}`);

    // One unmeasured pass first: disk cache, PrusaSlicer's first start and the like.
    for (const id of ['ours', 'prusa', 'cura']) run[id]?.(jobs[0][1], join(workDir, `warmup.${id}.gcode`));

    const results = [];
    for (const [file, job, inCorpus] of jobs) {
      const result = { ...benchModel(file, job, run, opts, workDir, facts), corpus: inCorpus };
      results.push(result);
      console.log(`\n${formatModelTable(result)}`);
    }
    const summary = summarise(results);
    console.log(`\n${summary.lines.join('\n')}`);
    if (opts.json) {
      writeFileSync(
        opts.json,
        `${JSON.stringify(
          {
            date: new Date().toISOString(),
            cpus: cpus().length,
            node: process.version,
            runs: opts.runs,
            configSource: source,
            caveats: jobs[0][1].caveats,
            results,
            pass: summary.pass,
          },
          null,
          2,
        )}\n`,
      );
    }
  } finally {
    if (opts.keep) log(`outputs kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  log(err.message);
  process.exit(1);
});
