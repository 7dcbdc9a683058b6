#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS MALLOC_MMAP_THRESHOLD_=131072 MALLOC_ARENA_MAX=1 node --max-semi-space-size=2 --interrupt-budget=135168 --max-inlined-bytecode-size-cumulative=460
/**
 * printyard-slice: slice an STL/3MF into G-code from the command line, or list the profile catalogue.
 *
 * The first line sets what a one-shot slicing process needs of its runtime (measured on the corpus,
 * two cores, appliance/slicer/engine/README.md): a fixed malloc threshold of 128 kB, so that glibc
 * does not raise it after a large buffer is freed and then keep the engine's many typed arrays in a
 * heap it cannot give back (bearing.stl: 99 MB → 88 MB peak); one malloc arena for every thread, so
 * that what V8's compiler threads free is reused rather than given back and faulted in again (half
 * the page faults; rigid3d platform 0.66 → 0.62 s, bearing 1.27 → 1.24 s); a 2 MB young generation
 * instead of V8's 16 MB, which the allocation rate of the layer work would otherwise fill (rigid3d
 * platform: 94 MB → 85 MB, the same time), and less optimising-compiler work than V8 does for a
 * long-lived server: functions are optimised after twice the usual run time and inline half as
 * much. A slice of a few hundred small layers otherwise spends as much CPU time compiling on a
 * second thread as slicing on the first (rigid3d platform: CPU time -13 %, wall time -5 %, 3 MB
 * less; the long Menger sponge and bearing slices take the same time). NODE_EXTRA_CA_CERTS is
 * dropped: Node reads and parses that certificate file as it starts, before any code runs, and a
 * slice opens no TLS connection (Debian's bundle of 144 certificates took 45-50 ms of CPU, of
 * 0.4 s for a box's whole slice).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { AppError, ErrorCode, toAppError } from '../../common/errors.js';
import { packageVersion } from '../../common/version.js';
import { ProfileCatalogue } from '../profiles/catalogue.js';
import { sliceMetadata } from '../profiles/slice-metadata.js';
import { parseArgs, USAGE, type ListArgs, type SliceArgs } from './args.js';

async function catalogue(configDir: string | null): Promise<ProfileCatalogue> {
  const cat = await ProfileCatalogue.bundled();
  if (configDir) await cat.loadDirectory(configDir);
  return cat;
}

async function list(args: ListArgs): Promise<void> {
  const profiles = (await catalogue(args.configDir)).list({ kind: args.kind, ...(args.vendor ? { vendor: args.vendor } : {}) });
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ profiles }, null, 2)}\n`);
    return;
  }
  const rows = profiles.map((p) => [p.kind, p.id, p.vendor, p.name + (p.is_default ? ' (default)' : '')]);
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length), 4));
  for (const r of rows) process.stdout.write(`${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3]}\n`);
}

function duration(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h ${m}m` : `${m}m ${Math.round(s % 60)}s`;
}

async function readModel(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new AppError(ErrorCode.badRequest, 400, `cannot read model "${path}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function slice(args: SliceArgs): Promise<void> {
  // The engine is most of the program's modules (listing profiles or printing help never loads it):
  // its files are read while the catalogue loads.
  const engine = import('../engine/pipeline/slice.js');
  engine.catch(() => undefined);
  // Without a data directory only the named profiles (and their parents) are read and checked;
  // user profiles may inherit from any bundled one, so a data directory takes the whole catalogue.
  const named = [args.printer, ...args.filaments, args.process];
  const cat = args.configDir ? await catalogue(args.configDir) : await ProfileCatalogue.bundledFor(named);
  const config = cat.resolveConfig({ printerId: args.printer, filamentIds: args.filaments, processId: args.process, overrides: args.overrides });
  const bambu = config.gcode_flavor === 'bambu';
  if (bambu && !args.output.endsWith('.gcode.3mf')) {
    throw new AppError(ErrorCode.badRequest, 400, `printer "${args.printer}" takes a Bambu .gcode.3mf package: name the output *.gcode.3mf`);
  }
  const { sliceModel } = await engine;
  const showProgress = !args.quiet && process.stderr.isTTY;
  let last = '';
  const result = await sliceModel({
    model: () => readModel(args.model),
    fileName: basename(args.model),
    config,
    outputPath: args.output,
    metadata: sliceMetadata(cat, { printerId: args.printer, filamentIds: args.filaments, processId: args.process }),
    workers: args.workers ?? undefined,
    // The command line writes the G-code only; the toolpath picture would be drawn for nothing.
    preview: false,
    onProgress: showProgress
      ? (e) => {
          const line = `${e.stage} ${e.pct.toFixed(0)}%`;
          if (line !== last) process.stderr.write(`\r${line.padEnd(20)}`);
          last = line;
        }
      : undefined,
  });
  if (showProgress) process.stderr.write(`${'\r'.padEnd(21)}\r`);
  for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
  if (!args.quiet) {
    const grams = result.filament.g.reduce((a, b) => a + b, 0);
    process.stderr.write(`${result.outputPath}: ${result.layers} layers, ${duration(result.estimatedTimeS)}, ${grams.toFixed(1)} g filament\n`);
  }
}

async function main(): Promise<number> {
  try {
    const args = parseArgs(process.argv.slice(2));
    switch (args.mode) {
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return 0;
      case 'version':
        process.stdout.write(`${packageVersion()}\n`);
        return 0;
      case 'list':
        await list(args);
        return 0;
      case 'slice':
        await slice(args);
        return 0;
    }
  } catch (err) {
    const e = toAppError(err);
    process.stderr.write(
      `printyard-slice: ${e.message}${e.code === ErrorCode.badRequest && /option|missing|argument/.test(e.message) ? `\n\n${USAGE}` : ''}\n`,
    );
    return e.status >= 500 ? 1 : 2;
  }
}

// A reader that stops early (`--list-profiles | head`) closes the pipe: that ends the listing, not in a crash.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main();
