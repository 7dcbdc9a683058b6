// Turns measured runs into the benchmark's tables and its PASS/FAIL summary. Pure functions: the
// runner (bench-slice.mjs) measures, this module only aggregates and formats.

export const SLICERS = [
  { id: 'ours', label: 'ours' },
  { id: 'prusa', label: 'PrusaSlicer' },
  { id: 'cura', label: 'CuraEngine' },
];

export const TARGETS = { wallVsPrusa: 1.0, wallVsCura: 1.3, estimateDeviation: 0.1 };

const METRICS = ['wallS', 'cpuS', 'peakRssMb', 'layers', 'timeS', 'filamentMm', 'filamentG'];

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median of every metric over the runs of one slicer on one model. */
export function summariseRuns(runs) {
  return Object.fromEntries(METRICS.map((metric) => [metric, median(runs.map((run) => run[metric]))]));
}

export function formatDuration(seconds) {
  if (!Number.isFinite(seconds)) return '-';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m ${rest}s` : `${m}m ${rest}s`;
}

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : undefined);
const signedPercent = (r) => (r === undefined ? '-' : `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)} %`);
const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

function row(cells, widths) {
  return cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join('  ');
}

/** The check column: `-` when the G-code was not checked, else PASS or FAIL with the failed checks. */
function checkCell(check) {
  if (check === undefined) return '-';
  return check.pass ? 'PASS' : `FAIL ${check.failed.join(',')}`;
}

/**
 * One model's table: per slicer the medians of wall and CPU time, peak RSS, layers, estimates, and the
 * G-code check, then our ratios to each peer. `result.slicers[id]` is
 * `{ status: 'ok' | 'not built' | 'failed', summary, check?, error? }`.
 */
export function formatModelTable(result) {
  const widths = [12, 8, 7, 8, 7, 12, 8, 8, 6];
  const lines = [`== ${result.model} ==`, row(['slicer', 'wall s', 'cpu s', 'RSS MB', 'layers', 'est. time', 'fil. g', 'fil. m', 'check'], widths)];
  for (const { id, label } of SLICERS) {
    const entry = result.slicers[id];
    if (entry.status !== 'ok') {
      lines.push(`${label.padEnd(widths[0])}  ${entry.status}${entry.error ? `: ${entry.error}` : ''}`);
      continue;
    }
    const s = entry.summary;
    const check = checkCell(entry.check);
    lines.push(
      row(
        [
          label,
          fixed(s.wallS, 2),
          fixed(s.cpuS, 2),
          fixed(s.peakRssMb, 0),
          fixed(s.layers, 0),
          formatDuration(s.timeS),
          fixed(s.filamentG, 2),
          fixed(s.filamentMm / 1000, 2),
          check,
        ],
        widths,
      ),
    );
  }
  const ours = result.slicers.ours;
  if (ours.status === 'ok') {
    const parts = [];
    for (const { id, label } of SLICERS.slice(1)) {
      const peer = result.slicers[id];
      if (peer.status !== 'ok') continue;
      parts.push(
        `ours/${label}: time ${fixed(ratio(ours.summary.wallS, peer.summary.wallS), 2)}, ` +
          `RSS ${fixed(ratio(ours.summary.peakRssMb, peer.summary.peakRssMb), 2)}`,
      );
    }
    const prusa = result.slicers.prusa;
    if (prusa.status === 'ok') {
      parts.push(
        `estimate vs PrusaSlicer: time ${signedPercent(ratio(ours.summary.timeS, prusa.summary.timeS))}, ` +
          `filament ${signedPercent(ratio(ours.summary.filamentMm, prusa.summary.filamentMm))}`,
      );
    }
    lines.push(`ratios  ${parts.join(' · ')}`);
  }
  return lines.join('\n');
}

function oursAgainst(results, peerId) {
  return results.filter((r) => r.slicers.ours.status === 'ok' && r.slicers[peerId].status === 'ok');
}

/**
 * The summary: median wall-time ratio to each peer, then per model peak RSS and estimate
 * deviation against PrusaSlicer; each marked PASS/FAIL against TARGETS. Returns the lines and
 * whether everything passed (false when our engine did not run).
 */
export function summarise(results) {
  const lines = ['== summary =='];
  if (results.every((r) => r.slicers.ours.status === 'not built')) {
    lines.push('ours: not built — no ratios (peers were measured above)');
    return { lines, pass: false };
  }
  let pass = true;
  // The medians are over the corpus; models outside it (--large, `corpus: false`) are judged per model.
  const corpus = results.filter((r) => r.corpus !== false);
  for (const [peerId, label, target] of [
    ['prusa', 'PrusaSlicer', TARGETS.wallVsPrusa],
    ['cura', 'CuraEngine', TARGETS.wallVsCura],
  ]) {
    if (corpus.length === 0) {
      lines.push(`median wall-time ratio ours/${label}: no corpus model in this run`);
      continue;
    }
    const both = oursAgainst(corpus, peerId);
    const value = median(both.map((r) => ratio(r.slicers.ours.summary.wallS, r.slicers[peerId].summary.wallS)));
    const ok = value !== undefined && value <= target && both.length === corpus.length;
    pass &&= ok;
    lines.push(
      `median wall-time ratio ours/${label}: ${fixed(value, 2)} over ${both.length}/${corpus.length} corpus models ` +
        `(target ≤ ${target.toFixed(1)}) ${verdict(ok)}`,
    );
  }
  // Per model, ours against PrusaSlicer: a verdict line, or n/a when either did not run.
  const perModel = (title, judge) => {
    lines.push(title);
    for (const r of results) {
      const ours = r.slicers.ours;
      const prusa = r.slicers.prusa;
      if (ours.status !== 'ok' || prusa.status !== 'ok') {
        pass = false;
        lines.push(`  ${r.model}: n/a (ours ${ours.status}, PrusaSlicer ${prusa.status}) FAIL`);
        continue;
      }
      const { ok, text } = judge(ours.summary, prusa.summary);
      pass &&= ok;
      lines.push(`  ${r.model}: ${text} ${verdict(ok)}`);
    }
  };
  perModel("peak RSS ours vs PrusaSlicer (target ≤ PrusaSlicer's, per model):", (ours, prusa) => ({
    ok: ours.peakRssMb <= prusa.peakRssMb,
    text: `${fixed(ours.peakRssMb, 0)} MB vs ${fixed(prusa.peakRssMb, 0)} MB`,
  }));
  const within = (x) => x !== undefined && Math.abs(x - 1) <= TARGETS.estimateDeviation + 1e-12;
  perModel(`estimate deviation vs PrusaSlicer (target ±${TARGETS.estimateDeviation * 100} %, time and filament, per model):`, (ours, prusa) => {
    const time = ratio(ours.timeS, prusa.timeS);
    const filament = ratio(ours.filamentMm, prusa.filamentMm);
    return { ok: within(time) && within(filament), text: `time ${signedPercent(time)}, filament ${signedPercent(filament)}` };
  });
  return { lines, pass };
}
