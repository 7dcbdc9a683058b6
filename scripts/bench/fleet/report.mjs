// The fleet bench's table: printers online, dashboard CPU and memory, report → WebSocket latency,
// message counts and rates, and what else ran on the machine meanwhile.

const f = (v, d = 1) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const pad = (v, n) => String(v).padStart(n);

/** What the latency figures include; printed under the table and kept in the JSON. */
export const LATENCY_NOTE = [
  'latency = simulator publish → (Bambu: mosquitto, MQTT over TLS | Marlin: pty via socat) → driver → manager change filter',
  '  → event bus → WebSocket hub → this client. The manager sends an event only when the status (or progress) differs from the',
  '  last one sent, ignoring updated_at, and at most every 250 ms (status) or 500 ms (progress, AMS) per printer; a change that',
  '  comes sooner is held until the interval ends (the newest wins), so held time is part of the latency, and a report that',
  '  changes nothing (or is superseded while held) yields no message: "shown" counts the reports some message matched.',
].join('\n');

function latencyRow(label, g) {
  const l = g.latency;
  return (
    `  ${label.padEnd(22)} ${pad(g.reports, 8)} ${pad(g.reportsShown, 7)} ${pad(g.received, 9)} ${pad(g.matched, 8)} ${pad(g.unmatched, 6)}   ` +
    `${pad(f(l.p50, 2), 7)} ${pad(f(l.p99, 2), 7)} ${pad(f(l.max, 2), 7)}`
  );
}

export function formatReport(r) {
  const lines = [];
  const o = r.options;
  lines.push(
    `Fleet bench: one dashboard, ${o.bambu} Bambu (${r.models.P1S ?? 0} P1S deltas, ${r.models.X1C ?? 0} X1C full) ` +
      `pushing every ${o.pushIntervalMs} ms${o.stagger ? ' (staggered)' : ' (all in step)'}, ${o.marlin} Marlin (M155 auto-report); ` +
      `${f(r.window.seconds, 1)} s measured after ${f(o.warmup, 1)} s warm-up`,
  );
  lines.push(`command: ${r.command}`);
  lines.push('');
  lines.push('printers           configured   online at start   online at end');
  for (const [type, p] of Object.entries(r.printers)) {
    if (p.configured === 0) continue;
    lines.push(`  ${type.padEnd(16)} ${pad(p.configured, 10)} ${pad(p.onlineStart, 17)} ${pad(p.onlineEnd, 15)}`);
    for (const [reason, count] of Object.entries(p.offlineReasons)) lines.push(`    offline (${count}): ${reason}`);
  }
  lines.push('');
  const d = r.dashboard;
  lines.push(`dashboard (pid ${d.pid})`);
  lines.push(
    `  CPU                ${f(d.cpuPercent)} % of one core over the window ` +
      `(${f(d.cpuPercentPerPrinter, 2)} % per online printer; busiest second ${f(d.cpuPercentMaxSecond)} %)`,
  );
  lines.push(
    `  memory             RSS ${f(d.rssEndMb)} MB at the end (${f(d.rssStartMb)} MB at the start, ${f(d.rssMaxMb)} MB highest sampled); ` +
      `peak VmHWM ${f(d.peakMb)} MB`,
  );
  lines.push('');
  lines.push('report → WebSocket       reports   shown  messages  matched  other    p50 ms  p99 ms  max ms');
  for (const [name, g] of Object.entries(r.latency.groups)) lines.push(latencyRow(name, g));
  if (Object.keys(r.latency.groups).length === 0) lines.push('  (no printer.status or print.progress message received)');
  lines.push(
    `  reports sent in the window: Bambu ${r.reports.bambu} (${r.reports.bambuDeltas} deltas, ${r.reports.bambuFull} full), ` +
      `Marlin ${r.reports.marlin} temperature lines`,
  );
  lines.push('');
  const byType =
    Object.entries(r.ws.byType)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ') || 'none';
  lines.push(`WebSocket          ${r.ws.messages} messages, ${f(r.ws.perSecond)} per second (${byType})`);
  lines.push(
    `machine            ${r.machine.cores} cores, load average ${r.machine.loadavg.map((v) => f(v, 2)).join(' ')}; ` +
      `simulators + mosquitto + socat ${f(r.load.simulatorsCpuPercent)} %, bench client ${f(r.load.benchCpuPercent)} % of one core`,
  );
  lines.push('');
  lines.push(LATENCY_NOTE);
  if (r.problems.length > 0) {
    lines.push('');
    for (const p of r.problems) lines.push(`PROBLEM: ${p}`);
  }
  return `${lines.join('\n')}\n`;
}
