import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { loadScript } from '../../../fixtures/load-script.js';

interface ProcStats {
  parseStat(text: string): { ppid: number; utime: number; stime: number };
  parseStatus(text: string): { rssKb: number; hwmKb: number };
  cpuSeconds(pid: number): number;
  memory(pid: number): { rssKb: number; hwmKb: number };
  processTree(pid: number): number[];
  treeCpu(pid: number): Map<number, number>;
  treeCpuDelta(before: Map<number, number>, after: Map<number, number>): number;
}

const load = () => loadScript<ProcStats>('scripts/bench/fleet/proc-stats.mjs');

test('parses /proc stat lines whose command name holds spaces and parentheses', async () => {
  const p = await load();
  const line = '4242 (node (x) y) S 17 4242 4242 0 -1 4194560 1 0 0 0 123 45 0 0 20 0 11 0 1 1 1 0';
  assert.deepEqual(p.parseStat(line), { ppid: 17, utime: 123, stime: 45 });
  assert.throws(() => p.parseStat('garbage'), /not a \/proc stat line/);
  assert.deepEqual(p.parseStatus('Name:\tnode\nVmHWM:\t  150000 kB\nVmRSS:\t  120000 kB\n'), { rssKb: 120000, hwmKb: 150000 });
  assert.ok(Number.isNaN(p.parseStatus('Name:\tnode\n').rssKb));
});

test('reads CPU time, memory and the children of live processes; NaN for a gone one', async (t) => {
  if (process.platform !== 'linux') return t.skip('needs /proc');
  const p = await load();
  let x = 0;
  for (let i = 0; i < 5e7; i++) x += i;
  assert.ok(x > 0);
  assert.ok(p.cpuSeconds(process.pid) > 0);
  const mem = p.memory(process.pid);
  assert.ok(mem.rssKb > 1000 && mem.hwmKb >= mem.rssKb);
  const child = spawn('sleep', ['10']);
  try {
    assert.ok(p.processTree(process.pid).includes(child.pid as number));
    const before = p.treeCpu(process.pid);
    assert.ok(before.has(process.pid) && before.has(child.pid as number));
    assert.ok(p.treeCpuDelta(new Map(), before) >= p.cpuSeconds(process.pid) - 0.01);
  } finally {
    child.kill();
    await once(child, 'exit');
  }
  assert.ok(Number.isNaN(p.cpuSeconds(child.pid as number)));
  assert.ok(Number.isNaN(p.memory(child.pid as number).rssKb));
});
