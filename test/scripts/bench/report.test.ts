import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadScript } from '../../fixtures/load-script.js';

interface Summary {
  wallS?: number;
  cpuS?: number;
  peakRssMb?: number;
  layers?: number;
  timeS?: number;
  filamentMm?: number;
  filamentG?: number;
}
interface Entry {
  status: 'ok' | 'not built' | 'failed';
  summary?: Summary;
  check?: { pass: boolean; failed: string[] };
  error?: string;
}
interface Result {
  model: string;
  corpus?: boolean;
  slicers: Record<'ours' | 'prusa' | 'cura', Entry>;
}
interface ReportModule {
  median(values: number[]): number | undefined;
  summariseRuns(runs: Summary[]): Summary;
  formatDuration(seconds: number): string;
  formatModelTable(result: Result): string;
  summarise(results: Result[]): { lines: string[]; pass: boolean };
}

const report = await loadScript<ReportModule>('scripts/bench/report.mjs');

const measured = (wallS: number, peakRssMb: number, timeS = 1000, filamentMm = 2000): Entry => ({
  status: 'ok',
  summary: { wallS, cpuS: wallS * 1.5, peakRssMb, layers: 125, timeS, filamentMm, filamentG: 5.9 },
  check: { pass: true, failed: [] },
});

describe('aggregation', () => {
  it('takes medians and ignores missing values', () => {
    assert.equal(report.median([3, 1, 2]), 2);
    assert.equal(report.median([4, 1, 3, 2]), 2.5);
    assert.equal(report.median([Number.NaN]), undefined);
    assert.deepEqual(
      report.summariseRuns([
        { wallS: 1, cpuS: 2, peakRssMb: 80 },
        { wallS: 3, cpuS: 1, peakRssMb: 90 },
        { wallS: 2, cpuS: 3, peakRssMb: 70 },
      ]),
      { wallS: 2, cpuS: 2, peakRssMb: 80, layers: undefined, timeS: undefined, filamentMm: undefined, filamentG: undefined },
    );
  });

  it('formats durations as hours, minutes and seconds', () => {
    assert.equal(report.formatDuration(1341), '22m 21s');
    assert.equal(report.formatDuration(16196), '4h 29m 56s');
    assert.equal(report.formatDuration(Number.NaN), '-');
  });
});

describe('formatModelTable', () => {
  it('shows each slicer, our ratios to the peers and the estimate deviation', () => {
    const table = report.formatModelTable({
      model: 'box.stl',
      slicers: { ours: measured(0.1, 60, 1100, 2100), prusa: measured(0.2, 80), cura: measured(0.05, 10) },
    });
    assert.match(table, /^== box\.stl ==/);
    assert.match(table, /^PrusaSlicer +0\.20 +0\.30 +80 +125 +16m 40s +5\.90 +2\.00 +PASS$/m);
    assert.match(table, /ours\/PrusaSlicer: time 0\.50, RSS 0\.75/);
    assert.match(table, /ours\/CuraEngine: time 2\.00, RSS 6\.00/);
    assert.match(table, /estimate vs PrusaSlicer: time \+10\.0 %, filament \+5\.0 %/);
  });

  it('says when our engine is not built or a peer failed', () => {
    const table = report.formatModelTable({
      model: 'm.stl',
      slicers: { ours: { status: 'not built' }, prusa: { status: 'failed', error: 'exit 1' }, cura: measured(1, 10) },
    });
    assert.match(table, /^ours +not built$/m);
    assert.match(table, /^PrusaSlicer +failed: exit 1$/m);
    assert.doesNotMatch(table, /ratios/);
  });
});

describe('summarise', () => {
  it('passes when ours is at most as slow and as big as PrusaSlicer, ≤ 1.3 × CuraEngine, estimates within 10 %', () => {
    const { lines, pass } = report.summarise([
      { model: 'a', slicers: { ours: measured(1, 70, 1090, 1950), prusa: measured(1.2, 80), cura: measured(0.8, 20) } },
      { model: 'b', slicers: { ours: measured(2, 80, 950, 2000), prusa: measured(2, 90), cura: measured(1.5, 20) } },
    ]);
    assert.equal(pass, true, lines.join('\n'));
    assert.match(lines.join('\n'), /median wall-time ratio ours\/PrusaSlicer: 0\.92 over 2\/2 corpus models \(target ≤ 1\.0\) PASS/);
    assert.match(lines.join('\n'), /median wall-time ratio ours\/CuraEngine: 1\.29 over 2\/2 corpus models \(target ≤ 1\.3\) PASS/);
  });

  it('fails each target that is missed, per model for RSS and estimates', () => {
    const { lines, pass } = report.summarise([
      { model: 'a', slicers: { ours: measured(1.5, 100, 1200, 2000), prusa: measured(1, 80), cura: measured(0.5, 20) } },
    ]);
    const text = lines.join('\n');
    assert.equal(pass, false);
    assert.match(text, /ours\/PrusaSlicer: 1\.50 .* FAIL/);
    assert.match(text, /ours\/CuraEngine: 3\.00 .* FAIL/);
    assert.match(text, / {2}a: 100 MB vs 80 MB FAIL/);
    assert.match(text, / {2}a: time \+20\.0 %, filament \+0\.0 % FAIL/);
  });

  it('takes the time medians over the corpus and judges models outside it by their memory', () => {
    const { lines, pass } = report.summarise([
      { model: 'a', slicers: { ours: measured(1, 70, 1000, 2000), prusa: measured(1.25, 80), cura: measured(1, 20) } },
      { model: 'scan', corpus: false, slicers: { ours: measured(30, 900, 1000, 2000), prusa: measured(10, 800), cura: measured(5, 300) } },
    ]);
    const text = lines.join('\n');
    assert.equal(pass, false);
    assert.match(text, /ours\/PrusaSlicer: 0\.80 over 1\/1 corpus models \(target ≤ 1\.0\) PASS/);
    assert.match(text, /ours\/CuraEngine: 1\.00 over 1\/1 corpus models \(target ≤ 1\.3\) PASS/);
    assert.match(text, / {2}scan: 900 MB vs 800 MB FAIL/);
  });

  it('gives no time median when the run has no corpus model, and judges the others', () => {
    const { lines, pass } = report.summarise([
      { model: 'scan', corpus: false, slicers: { ours: measured(30, 700, 1000, 2000), prusa: measured(10, 800), cura: measured(5, 300) } },
    ]);
    const text = lines.join('\n');
    assert.equal(pass, true, text);
    assert.match(text, /ours\/PrusaSlicer: no corpus model in this run/);
    assert.match(text, / {2}scan: 700 MB vs 800 MB PASS/);
  });

  it('reports no verdict but a failure when our engine is not built', () => {
    const { lines, pass } = report.summarise([
      { model: 'a', slicers: { ours: { status: 'not built' }, prusa: measured(1, 80), cura: measured(1, 10) } },
    ]);
    assert.equal(pass, false);
    assert.match(lines.join('\n'), /ours: not built/);
  });
});
