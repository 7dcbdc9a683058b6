// CPU time and memory of processes from Linux's /proc: `utime`+`stime` of /proc/<pid>/stat
// (every thread of the process, in clock ticks) and VmRSS / VmHWM of /proc/<pid>/status.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond = null;

/** USER_HZ (`getconf CLK_TCK`), 100 on every Linux build we meet. */
export function clockTicksPerSecond() {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * The fields of a /proc/<pid>/stat line after the command name (which may hold spaces and
 * parentheses): index 0 is `state` (field 3 of proc(5)), so field n is at n - 3.
 */
export function parseStat(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc stat line: ${text.slice(0, 80)}`);
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  return { ppid: Number(rest[1]), utime: Number(rest[11]), stime: Number(rest[12]) };
}

/** `{ rssKb, hwmKb }` from the text of /proc/<pid>/status (VmRSS now, VmHWM the peak). */
export function parseStatus(text) {
  const kb = (name) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) : NaN;
  };
  return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
}

/** CPU seconds (user + system) the process has used so far; NaN when it is gone. */
export function cpuSeconds(pid) {
  try {
    const { utime, stime } = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return (utime + stime) / clockTicksPerSecond();
  } catch {
    return NaN;
  }
}

/** `{ rssKb, hwmKb }` of the process; NaN figures when it is gone. */
export function memory(pid) {
  try {
    return parseStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return { rssKb: NaN, hwmKb: NaN };
  }
}

/** Pids of every running process whose parent is `pid`. */
export function childPids(pid) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (parseStat(readFileSync(`/proc/${name}/stat`, 'utf8')).ppid === pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** `pid` and all its descendants. */
export function processTree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...childPids(out[i]));
  return out;
}

/** CPU seconds used so far by `pid` and each of its descendants, by pid. */
export function treeCpu(pid) {
  const out = new Map();
  for (const p of processTree(pid)) {
    const seconds = cpuSeconds(p);
    if (Number.isFinite(seconds)) out.set(p, seconds);
  }
  return out;
}

/** CPU seconds between two `treeCpu` snapshots; processes that started meanwhile count whole. */
export function treeCpuDelta(before, after) {
  let sum = 0;
  for (const [p, seconds] of after) sum += seconds - (before.get(p) ?? 0);
  return sum;
}

/**
 * Samples the children of `pid` every `intervalMs` until `stop()`, which returns
 * `{ peakKb, children }`: the highest VmHWM any of them reached and how many were seen. VmHWM only
 * grows, so a child is seen at its peak unless it ends within one interval of reaching it.
 */
export function watchChildren(pid, intervalMs = 20) {
  let peakKb = 0;
  const seen = new Set();
  const sample = () => {
    for (const child of childPids(pid)) {
      const { hwmKb } = memory(child);
      // A child that ended between the listing and the read has no figures.
      if (!Number.isFinite(hwmKb)) continue;
      seen.add(child);
      peakKb = Math.max(peakKb, hwmKb);
    }
  };
  const timer = setInterval(sample, intervalMs);
  sample();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peakKb, children: seen.size };
    },
  };
}
