// Matches what the WebSocket client received to the simulator report it came from.
//
// Each simulated report is recorded with the printer, a key and the time it was published; the
// key is a value of that report that the dashboard passes on unchanged: the layer number for a
// Bambu printer (the bench print changes layer about twice a second, so every report has its
// own), the two temperatures of a Marlin report (the simulator adds thermistor noise, so they
// change with every report). A `printer.status` or `print.progress` message is matched to the
// latest report of its printer with the same key published before the message arrived. That is
// exact while the path takes less than one report interval, and for the Bambu layer keys always
// (a key repeats only when the print starts over).
import { latencySummary } from '../stats.mjs';

/** How far back (reports of one printer) a match is looked for. */
const MAX_LOOKBACK = 600;

/** The key of a Bambu report: its layer (what `status.job.layer` and `progress.layer` show). */
export function bambuKey(layer) {
  return layer === null || layer === undefined ? null : String(layer);
}

/** The key of a temperature pair as both sides write it: `T B`, each with 2 decimals. */
export function temperatureKey(tool, bed) {
  if (!Number.isFinite(tool) || !Number.isFinite(bed)) return null;
  return `${tool.toFixed(2)} ${bed.toFixed(2)}`;
}

/** The key of a Marlin line with temperatures (` T:21.56 /0.00 B:21.88 /0.00 @:0 B@:0`, `ok T:…`), else null. */
export function marlinLineKey(line) {
  const m = /(?:^|\s)T:(-?\d+(?:\.\d+)?)\s*\/\s*-?\d+(?:\.\d+)?\s+B:(-?\d+(?:\.\d+)?)/.exec(line);
  return m ? temperatureKey(Number(m[1]), Number(m[2])) : null;
}

/** The key of a WebSocket event for a printer of `kind` ('bambu' | 'marlin'), or null. */
export function messageKey(kind, type, payload) {
  if (kind === 'bambu') {
    if (type === 'printer.status') return bambuKey(payload?.job?.layer);
    if (type === 'print.progress') return bambuKey(payload?.layer);
    return null;
  }
  if (kind === 'marlin' && type === 'printer.status') {
    const t = payload?.temperatures ?? {};
    return temperatureKey(t.tool0?.actual, t.bed?.actual);
  }
  return null;
}

/** Reports per printer, in the order they were published. */
export class PublishLog {
  constructor() {
    this.printers = new Map();
    this.count = 0;
  }

  /** `at` in ms on the monotonic clock (process.hrtime), shared by every process of the machine. */
  add(printer, key, at, info = {}) {
    let list = this.printers.get(printer);
    if (!list) {
      list = [];
      this.printers.set(printer, list);
    }
    list.push({ printer, key, at, ...info, id: this.count++ });
  }

  reports(printer) {
    return this.printers.get(printer) ?? [];
  }

  /** The latest report of `printer` with `key` published at or before `at`; null when none. */
  find(printer, key, at) {
    const list = this.printers.get(printer);
    if (!list || key === null) return null;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].at <= at) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0 && i >= lo - MAX_LOOKBACK; i--) if (list[i].key === key) return list[i];
    return null;
  }

  /** Every report published in [start, end). */
  *within(start, end) {
    for (const list of this.printers.values()) for (const r of list) if (r.at >= start && r.at < end) yield r;
  }
}

/**
 * Latency and counts per group (`<kind> <event type>`) over a window [start, end) in ms:
 * - `received`: messages received in the window;
 * - `matched`: messages whose report was published in the window (their latencies are the
 *   samples, `latency` = { count, p50, p99, max } in ms); messages received up to `until` count
 *   here too, so a report published just before `end` is not lost;
 * - `unmatched`: messages received in the window that no report explains;
 * - `reports`: reports of that kind published in the window, `reportsShown`: how many of them a
 *   message of this type matched (the rest were deduplicated, superseded or lost).
 * `all` summarises every matched latency. `messages`: `{ kind, type, printer, key, at }`.
 */
export function correlate(log, messages, { start, end, until = end, kinds }) {
  const groups = new Map();
  const group = (kind, type) => {
    const name = `${kind} ${type}`;
    if (!groups.has(name)) groups.set(name, { kind, type, received: 0, matched: 0, unmatched: 0, samples: [], shown: new Set() });
    return groups.get(name);
  };
  for (const m of messages) {
    if (m.at < start || m.at > until) continue;
    const g = group(m.kind, m.type);
    const inWindow = m.at < end;
    if (inWindow) g.received++;
    const report = log.find(m.printer, m.key, m.at);
    if (!report) {
      if (inWindow) g.unmatched++;
      continue;
    }
    if (report.at < start || report.at >= end) continue;
    g.matched++;
    g.samples.push(m.at - report.at);
    g.shown.add(report.id);
  }
  const reports = new Map();
  for (const r of log.within(start, end)) reports.set(r.kind, (reports.get(r.kind) ?? 0) + 1);
  for (const kind of kinds ?? []) reports.set(kind, reports.get(kind) ?? 0);
  const out = {};
  const all = [];
  const order = (g) => `${g.kind} ${['printer.status', 'print.progress'].indexOf(g.type) + 1 || 9} ${g.type}`;
  for (const [name, g] of [...groups].sort(([, a], [, b]) => order(a).localeCompare(order(b)))) {
    all.push(...g.samples);
    out[name] = {
      kind: g.kind,
      type: g.type,
      received: g.received,
      matched: g.matched,
      unmatched: g.unmatched,
      reports: reports.get(g.kind) ?? 0,
      reportsShown: g.shown.size,
      latency: latencySummary(g.samples),
    };
  }
  return { groups: out, reports: Object.fromEntries(reports), all: latencySummary(all) };
}
