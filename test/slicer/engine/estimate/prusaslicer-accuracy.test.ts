/**
 * Accuracy gate: for every model of the shared corpus, PrusaSlicer 2.5 slices it for a generic
 * 220×220 Marlin 2 printer (test/fixtures/estimate/prusaslicer-marlin2-220.ini, machine limits
 * written into the G-code), and our estimate of that G-code must be within 5 % of the
 * "estimated printing time (normal mode)" PrusaSlicer wrote into it. Slicing the larger models
 * takes PrusaSlicer tens of seconds, so the G-code is cached under the temp directory, keyed by
 * model, configuration and PrusaSlicer build.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { promisify } from 'node:util';
import { estimateGcodeFile } from '../../../../appliance/slicer/engine/estimate/estimate-file.js';
import { CORPUS_DIR, needsShared } from '../../../fixtures/shared.js';

const run = promisify(execFile);
const PRUSA_SLICER = '/usr/bin/prusa-slicer';
const CONFIG = join(process.cwd(), 'test/fixtures/estimate/prusaslicer-marlin2-220.ini');
const CACHE = join(tmpdir(), 'printyard-estimate-gate');
const TOLERANCE = 0.05;
const SLICE_TIMEOUT_MS = 15 * 60 * 1000;

function cacheKey(model: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(CONFIG));
  hash.update(readFileSync(model));
  const prusa = statSync(PRUSA_SLICER);
  hash.update(`${prusa.size}:${prusa.mtimeMs}`);
  return hash.digest('hex').slice(0, 16);
}

/** PrusaSlicer's G-code for a model, sliced once and then reused. */
async function prusaGcode(model: string): Promise<string> {
  const name = basename(model, extname(model));
  const path = join(CACHE, `${name}-${cacheKey(model)}.gcode`);
  if (existsSync(path)) return path;
  const partial = `${path}.${process.pid}.partial`;
  try {
    await run(PRUSA_SLICER, ['--load', CONFIG, '--export-gcode', '-o', partial, model], { timeout: SLICE_TIMEOUT_MS, maxBuffer: 64 << 20 });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
  return path;
}

/** PrusaSlicer's own estimate, from the statistics it writes near the end of the file. */
async function prusaEstimateS(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, 256 * 1024);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const m = /; estimated printing time \(normal mode\) = ([^\n]+)/.exec(buffer.toString('latin1'));
    assert.ok(m, `${path} has no PrusaSlicer time estimate`);
    const units: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };
    let seconds = 0;
    for (const [, value, unit] of m[1].matchAll(/(\d+)([dhms])/g)) seconds += Number(value) * units[unit];
    return seconds;
  } finally {
    await handle.close();
  }
}

/** Runs jobs with at most `limit` at a time (PrusaSlicer already uses every core it can). */
async function inTurns<T>(items: string[], limit: number, job: (item: string) => Promise<T>): Promise<Map<string, T>> {
  const results = new Map<string, T>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++];
      results.set(item, await job(item));
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

test("our estimate of PrusaSlicer 2.5 G-code is within 5 % of PrusaSlicer's own, for every corpus model", {
  skip: needsShared(CORPUS_DIR),
}, async (t) => {
  assert.ok(existsSync(PRUSA_SLICER), 'prusa-slicer is installed by scripts/setup.mjs');
  mkdirSync(CACHE, { recursive: true });
  const models = readdirSync(CORPUS_DIR)
    .filter((f) => /\.(stl|3mf)$/i.test(f))
    .sort()
    .map((f) => join(CORPUS_DIR, f));
  assert.ok(models.length >= 8, 'the corpus holds its eight models');
  assert.ok(
    models.some((m) => m.endsWith('.3mf')),
    'the corpus 3MF is part of the gate',
  );
  const gcode = await inTurns(models, 2, prusaGcode);
  for (const model of models) {
    await t.test(basename(model), async () => {
      const path = gcode.get(model)!;
      const reference = await prusaEstimateS(path);
      const ours = await estimateGcodeFile(path);
      const error = ours.totalS / reference - 1;
      t.diagnostic(`${basename(model)}: ours ${ours.totalS.toFixed(0)} s, PrusaSlicer ${reference} s, ${(error * 100).toFixed(2)} %`);
      assert.ok(
        Math.abs(error) <= TOLERANCE,
        `${basename(model)}: ours ${ours.totalS.toFixed(1)} s vs PrusaSlicer ${reference} s (${(error * 100).toFixed(2)} %)`,
      );
      assert.ok(ours.layerStartS.length > 0 && ours.layerSource === 'comments');
    });
  }
});
