// The farm bench's table: what a run measured, in the order it measured it.
import { historyRows } from '../history-load.mjs';

const f1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');
const latency = (s) => (s.count > 0 ? `p50 ${f1(s.p50)} ms, p99 ${f1(s.p99)} ms, max ${f1(s.max)} ms (n=${s.count})` : 'none');

function rows(lines, entries) {
  for (const [name, value] of entries) lines.push(`  ${name.padEnd(40)} ${value}`);
}

export function formatFarmReport(r) {
  const o = r.options;
  const lines = [
    `Farm bench: one dashboard, ${o.bambu} Bambu + ${o.marlin} Marlin printers, ${o.jobs} jobs, ${o.records} history records; ` +
      `plates cycled for ${o.seconds} s (prints of ${o.printSeconds} s, operator delay ${o.operatorDelayMs} ms)`,
    `command: ${r.command}`,
    `machine: ${r.machine.cores} cores, load average ${r.machine.loadavg.map((v) => v.toFixed(2)).join(' ')}`,
    '',
    'printers online at the end',
  ];
  rows(
    lines,
    Object.entries(r.printers).map(([type, s]) => [type, `${s.online} of ${s.configured}`]),
  );
  lines.push('', 'queue');
  rows(lines, [
    [`POST /api/queue (${o.jobs} jobs, one by one)`, latency(r.queue.add)],
    ['queue.json with every job queued', `${(r.queue.queueJsonBytes / 1024).toFixed(0)} KiB`],
    [`round, no plate clear (${r.rounds.noPlateClear.count} rounds)`, latency(r.rounds.noPlateClear)],
    ['round right after every plate confirmed', `${f1(r.rounds.afterAllCleared.ms)} ms, ${r.rounds.afterAllCleared.dispatched} copies claimed in it`],
    [
      'jobs at the end',
      `${r.queue.end.jobs}: ${Object.entries(r.queue.end.byState)
        .map(([state, n]) => `${n} ${state}`)
        .join(', ')}; ${r.queue.end.copiesDone} copies done`,
    ],
  ]);
  lines.push('', 'plate cleared → print started');
  for (const [group, label] of [
    ['burst', 'every plate at once'],
    ['single', 'one plate as its print ends'],
  ]) {
    const g = r.plates[group];
    lines.push(`  ${label}: ${g.plates} plates confirmed, ${g.started} started a print`);
    rows(lines, [
      ['  → print.dispatched (round + upload)', latency(g.toDispatched)],
      ['  → the printer starts (simulator)', latency(g.toStart)],
      ['  → printer.status printing (WebSocket)', latency(g.toWs)],
    ]);
  }
  rows(lines, [
    ['POST plate-cleared itself', latency(r.plates.request)],
    ['refused (409: print not yet seen ending)', String(r.plates.refused)],
  ]);
  lines.push('', `history (${r.history.records} records)`);
  rows(lines, historyRows(r.history));
  lines.push('', `dashboard (pid ${r.dashboard.pid}): CPU % of one core and RSS per phase`);
  for (const p of r.dashboard.phases) {
    lines.push(
      `  ${p.name.padEnd(40)} ${p.seconds.toFixed(1).padStart(6)} s  CPU ${f1(p.cpuPercent).padStart(6)} %  ` +
        `RSS ${f1(p.rssEndMb)} MB at the end, ${f1(p.rssMaxMb)} MB highest`,
    );
  }
  const t = r.dashboard.total;
  lines.push(
    `  ${'whole run'.padEnd(40)} ${t.seconds.toFixed(1).padStart(6)} s  CPU ${f1(t.cpuPercent).padStart(6)} %  ` +
      `peak RSS (VmHWM) ${f1(r.dashboard.peakMb)} MB`,
  );
  lines.push('', 'WebSocket messages per phase (by type)');
  for (const [name, byType] of Object.entries(r.ws)) {
    const total = Object.values(byType).reduce((a, b) => a + b, 0);
    const types = Object.entries(byType)
      .sort((a, b) => b[1] - a[1])
      .map(([type, n]) => `${type} ${n}`)
      .join(', ');
    lines.push(`  ${name.padEnd(40)} ${String(total).padStart(6)}${types ? `: ${types}` : ''}`);
  }
  if (r.problems.length > 0) lines.push('', ...r.problems.map((p) => `PROBLEM: ${p}`));
  return `${lines.join('\n')}\n`;
}
