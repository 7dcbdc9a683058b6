// Plates confirmed clear and the prints that follow, as a farm operator works: when a printer's
// print has ended (its `printer.status` on the WebSocket leaves printing), the operator takes the
// parts off and, after `operatorDelayMs`, confirms the plate clear (POST
// /api/printers/:id/plate-cleared); the queue's round then sends that printer its next job.
// For each confirmation this records, from the moment the request was sent:
//   - `dispatched`: the queue's `print.dispatched` for that printer on the WebSocket (round, claim
//     written to queue.json, the file uploaded; published just before the start command);
//   - `start`: the virtual printer's own start (its timestamp from the simulator process, the
//     same monotonic clock);
//   - `ws`: the printer's `printer.status` printing (or preparing) on the WebSocket;
// and the time the request itself took. Confirmations are grouped: `burst` (every plate at once)
// and `single` (one plate as its print ends).
import { latencySummary } from '../stats.mjs';

const RUNNING = new Set(['preparing', 'printing']);
const ENDED = new Set(['idle', 'finished', 'error']);
const CLEAR_RETRIES = 5;
const CLEAR_RETRY_MS = 300;

export class PlateCycles {
  /** `printers`: dashboard id → { kind, printer (simulator name), name }. */
  constructor({ base, headers, printers, nowMs, operatorDelayMs, log }) {
    Object.assign(this, { base, headers, nowMs, operatorDelayMs, log });
    this.printers = printers;
    this.idBySimName = new Map([...printers].map(([id, p]) => [p.printer, id]));
    this.state = new Map([...printers.keys()].map((id) => [id, { pending: null, running: false }]));
    this.done = [];
    this.requests = [];
    this.refused = 0;
    this.startsWithoutClear = 0;
    this.cycling = false;
    this.timers = new Set();
  }

  /** A WebSocket message (the bench client's `at`). */
  onMessage(message, at) {
    const id = message.payload?.printer_id;
    const printer = this.state.get(id);
    if (!printer) return;
    if (message.type === 'print.dispatched') {
      if (printer.pending && printer.pending.dispatchedAt === null) printer.pending.dispatchedAt = at;
    } else if (message.type === 'printer.status') {
      const state = message.payload.state;
      if (RUNNING.has(state)) {
        printer.running = true;
        if (printer.pending && printer.pending.wsAt === null) printer.pending.wsAt = at;
      } else if (ENDED.has(state) && printer.running) {
        printer.running = false;
        if (this.cycling) this.later(() => this.clear(id, 'single'), this.operatorDelayMs);
      }
    }
  }

  /** A print the simulator saw begin: `{ printer, kind, at, file }`. */
  onStart(start) {
    const printer = this.state.get(this.idBySimName.get(start.printer));
    if (printer?.pending && printer.pending.startAt === null) printer.pending.startAt = start.at;
    else this.startsWithoutClear++;
  }

  /** Confirms every plate at once; resolves when every request has been answered. */
  async clearAll() {
    await Promise.all([...this.state.keys()].map((id) => this.clear(id, 'burst')));
  }

  /** From now on each plate is confirmed clear again when its print ends. */
  startCycling() {
    this.cycling = true;
  }

  stopCycling() {
    this.cycling = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  later(work, ms) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work().catch((err) => this.log(err.message));
    }, ms);
    this.timers.add(timer);
  }

  async clear(id, group, attempt = 1) {
    const printer = this.state.get(id);
    const clearedAt = this.nowMs();
    const res = await fetch(`${this.base}/api/printers/${encodeURIComponent(id)}/plate-cleared`, { method: 'POST', headers: this.headers });
    const text = await res.text();
    this.requests.push(this.nowMs() - clearedAt);
    // 409: the printer still prints (its end not yet seen by the dashboard) or a copy is on its way to it.
    if (res.status === 409) {
      this.refused++;
      if (attempt < CLEAR_RETRIES && (this.cycling || group === 'burst')) this.later(() => this.clear(id, group, attempt + 1), CLEAR_RETRY_MS);
      return;
    }
    if (res.status !== 200) throw new Error(`POST /api/printers/${id}/plate-cleared: HTTP ${res.status} ${text}`);
    if (printer.pending) this.done.push(printer.pending);
    printer.pending = { printerId: id, group, clearedAt, dispatchedAt: null, startAt: null, wsAt: null };
  }

  /** Per group: confirmations, how many led to a start, and the latency summaries (ms). */
  results() {
    const all = [...this.done, ...[...this.state.values()].map((p) => p.pending).filter(Boolean)];
    const out = {};
    for (const group of ['burst', 'single']) {
      const plates = all.filter((p) => p.group === group);
      const since = (key) => plates.filter((p) => p[key] !== null).map((p) => p[key] - p.clearedAt);
      out[group] = {
        plates: plates.length,
        started: plates.filter((p) => p.startAt !== null).length,
        toDispatched: latencySummary(since('dispatchedAt')),
        toStart: latencySummary(since('startAt')),
        toWs: latencySummary(since('wsAt')),
      };
    }
    return {
      ...out,
      request: latencySummary(this.requests),
      refused: this.refused,
      startsWithoutClear: this.startsWithoutClear,
    };
  }
}
