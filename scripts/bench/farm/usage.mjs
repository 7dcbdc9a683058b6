// The dashboard's CPU and memory over a bench run, from /proc every second, with the run split into
// named phases: CPU as % of one core per phase and over the whole run, RSS per phase (highest
// sample) and the peak (VmHWM: the highest RSS since the process started).
import { cpuSeconds, memory } from '../fleet/proc-stats.mjs';

const SAMPLE_MS = 1000;

export class UsageRecorder {
  constructor(pid, nowMs) {
    this.pid = pid;
    this.nowMs = nowMs;
    this.phases = [];
    this.timer = null;
  }

  /** Ends the current phase (if any) and starts the next one. */
  phase(name) {
    this.close();
    const at = this.nowMs();
    const mem = memory(this.pid);
    this.phases.push({ name, startMs: at, cpuStart: cpuSeconds(this.pid), rssMaxKb: mem.rssKb || 0, end: null });
    clearInterval(this.timer);
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  sample() {
    const current = this.phases.at(-1);
    if (!current) return;
    const rss = memory(this.pid).rssKb;
    if (rss > current.rssMaxKb) current.rssMaxKb = rss;
  }

  close() {
    const current = this.phases.at(-1);
    if (!current || current.end) return;
    this.sample();
    current.end = { atMs: this.nowMs(), cpu: cpuSeconds(this.pid), rssKb: memory(this.pid).rssKb };
  }

  /** Stops sampling; `{ phases: [{name, seconds, cpuPercent, rssEndMb, rssMaxMb}], total, peakMb }`. */
  finish() {
    this.close();
    clearInterval(this.timer);
    const mb = (kb) => kb / 1024;
    const phases = this.phases.map((p) => {
      const seconds = (p.end.atMs - p.startMs) / 1000;
      return {
        name: p.name,
        seconds,
        cpuPercent: seconds > 0 ? ((p.end.cpu - p.cpuStart) / seconds) * 100 : NaN,
        rssEndMb: mb(p.end.rssKb),
        rssMaxMb: mb(Math.max(p.rssMaxKb, p.end.rssKb)),
      };
    });
    const first = this.phases[0];
    const last = this.phases.at(-1);
    const seconds = last ? (last.end.atMs - first.startMs) / 1000 : 0;
    const total = {
      seconds,
      cpuPercent: seconds > 0 ? ((last.end.cpu - first.cpuStart) / seconds) * 100 : NaN,
      rssMaxMb: Math.max(0, ...phases.map((p) => p.rssMaxMb)),
    };
    return { phases, total, peakMb: mb(memory(this.pid).hwmKb) };
  }
}
