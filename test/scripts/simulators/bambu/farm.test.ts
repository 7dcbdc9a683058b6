import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../../../appliance/common/logger.js';
import { startVirtualBambuFarm } from '../../../../scripts/simulators/bambu/farm.js';

const log = createLogger({ name: 'farm-test', level: 'error' });

/** When each printer published its periodic reports (ms, performance clock), for `ms`. */
async function publishTimes(staggerPushes: boolean, ms: number): Promise<number[][]> {
  const farm = await startVirtualBambuFarm({
    printers: [
      { serial: '01P00A000000001', accessCode: '12345678' },
      { serial: '01P00A000000002', accessCode: '12345678' },
    ],
    pushIntervalMs: 400,
    staggerPushes,
    log,
  });
  try {
    const times = farm.printers.map(() => [] as number[]);
    for (const [i, p] of farm.printers.entries()) p.printer.on('publish', () => times[i].push(performance.now()));
    await new Promise((resolve) => setTimeout(resolve, ms));
    return times;
  } finally {
    await farm.stop();
  }
}

/** How far apart (ms, 0..200 for a 400 ms period) the two printers' report clocks run. */
function phaseGap(times: number[][]): number {
  const [a, b] = times.map((t) => t.slice(1, 4));
  const gaps = a.map((t) => Math.min(...b.map((u) => Math.abs(u - t))));
  return gaps.reduce((x, y) => x + y, 0) / gaps.length;
}

test('staggered printers spread their reports over the push interval; by default they report in step', async () => {
  const inStep = await publishTimes(false, 2500);
  const staggered = await publishTimes(true, 2500);
  for (const t of [...inStep, ...staggered]) assert.ok(t.length >= 4, `reports: ${t.length}`);
  assert.ok(phaseGap(inStep) < 60, `in step: ${phaseGap(inStep)} ms apart`);
  assert.ok(phaseGap(staggered) > 120, `staggered: ${phaseGap(staggered)} ms apart (half the 400 ms period expected)`);
});
