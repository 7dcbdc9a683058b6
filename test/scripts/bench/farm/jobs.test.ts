import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unzipSync, strFromU8 } from 'fflate';
import { loadScript } from '../../../fixtures/load-script.js';

interface Filament {
  material: string;
  color: string;
}
interface BenchJob {
  name: string;
  kind: 'bambu' | 'marlin';
  fileName: string;
  content: string | Uint8Array;
}
interface Jobs {
  PALETTE: Filament[];
  bambuTrays(i: number): Array<{ type: string; color: string }>;
  marlinSpool(j: number): Filament;
  benchJob(n: number, farm: { bambuCount: number; marlinCount: number; printSeconds: number }): BenchJob;
}

const { bambuTrays, benchJob, marlinSpool } = await loadScript<Jobs>('scripts/bench/farm/jobs.mjs');

/** What the job asks for, read back from its file as the queue reads it. */
function wanted(job: BenchJob): string[] {
  if (job.kind === 'marlin') {
    const text = job.content as string;
    return [`${/; filament_type = (\S+)/.exec(text)?.[1]} ${/; filament_colour = (\S+)/.exec(text)?.[1]}`];
  }
  const info = strFromU8(unzipSync(job.content as Uint8Array)['Metadata/slice_info.config']);
  return [...info.matchAll(/type="([^"]+)" color="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
}

for (const [bambuCount, marlinCount] of [
  [50, 5],
  [2, 1],
  [0, 3],
  [4, 0],
]) {
  test(`with ${bambuCount} Bambu and ${marlinCount} Marlin printers each job fits some printer (a full farm: about half)`, () => {
    const loads = [
      ...Array.from({ length: bambuCount }, (_, i) => ({ kind: 'bambu', has: bambuTrays(i).map((t) => `${t.type} #${t.color.slice(0, 6)}`) })),
      ...Array.from({ length: marlinCount }, (_, j) => ({ kind: 'marlin', has: [`${marlinSpool(j).material} ${marlinSpool(j).color}`] })),
    ];
    const fitting = Array.from({ length: 200 }, (_, n) => {
      const job = benchJob(n, { bambuCount, marlinCount, printSeconds: 3 });
      const needs = wanted(job);
      return loads.filter((p) => p.kind === job.kind && needs.every((f) => p.has.includes(f))).length;
    });
    assert.ok(
      fitting.every((n) => n > 0),
      `jobs nobody fits: ${fitting.flatMap((n, i) => (n === 0 ? [i] : [])).join(', ')}`,
    );
    if (bambuCount >= 8) assert.ok(Math.max(...fitting) < loads.length / 2 + 1, `a job fits ${Math.max(...fitting)} printers`);
  });
}

test('each Marlin G-code file opens with the line the simulator reports as its start', () => {
  const job = benchJob(10, { bambuCount: 50, marlinCount: 5, printSeconds: 3 });
  assert.equal(job.kind, 'marlin');
  assert.equal((job.content as string).split('\n')[0], `M117 bench-job ${job.name}`);
  assert.equal(job.fileName, `${job.name}.gcode`);
});
