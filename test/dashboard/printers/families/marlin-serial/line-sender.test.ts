/**
 * The line sender's recovery rules, with the firmware's answers written out line by line: the
 * cases the virtual Marlin cannot provoke on demand (echoes of a resend request from lines that
 * were on the way, a resent line damaged again, silence after every probe).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LineSender, type SenderTimings } from '../../../../../appliance/dashboard/printers/families/marlin-serial/line-sender.js';
import { classify } from '../../../../../appliance/dashboard/printers/families/marlin-serial/replies.js';

const SLOW: SenderTimings = { lineTimeoutMs: 60_000, longCommandTimeoutMs: 60_000, maxProbes: 3 };

function harness(timings: SenderTimings = SLOW) {
  const written: string[] = [];
  const accepted: string[] = [];
  const dead: string[] = [];
  const sender = new LineSender(
    { write: (line) => written.push(line), accepted: (c) => accepted.push(c), dead: (reason) => dead.push(reason) },
    timings,
    2,
  );
  const answer = (...lines: string[]) => {
    for (const line of lines) sender.received(classify(line), line, classify(line).kind === 'other');
  };
  return { sender, written, accepted, dead, answer };
}

const numbers = (written: string[]) => written.map((line) => line.replace(/\*\d+$/, ''));

test('one line at a time: the next goes out on the ok; answer lines belong to their command', async () => {
  const { sender, written, accepted, answer } = harness();
  const first = sender.send('M115');
  const second = sender.send('G28');
  assert.deepEqual(numbers(written), ['N2 M115']);
  answer('FIRMWARE_NAME:Marlin', 'ok');
  assert.deepEqual(numbers(written), ['N2 M115', 'N3 G28']);
  answer('echo:busy: processing', 'ok');
  assert.deepEqual(await first, ['FIRMWARE_NAME:Marlin']);
  assert.deepEqual(await second, []);
  assert.deepEqual(accepted, ['M115', 'G28']);
});

test('a resend request: the lines from n go again once; repeats from lines on the way are echoes', async () => {
  const { sender, written, accepted, answer } = harness();
  const heat = sender.send('M109 S200');
  const breakWait = sender.sendUrgent('M108');
  assert.deepEqual(numbers(written), ['N2 M109 S200', 'N3 M108']);
  // N2 arrived damaged; N3, still on the way when the firmware flushed its buffer, is refused too.
  answer('Error:checksum mismatch, Last Line: 1', 'Resend: 2', 'ok');
  answer('Error:Line Number is not Last Line Number+1, Last Line: 1', 'Resend: 2', 'ok');
  assert.deepEqual(numbers(written).slice(2), ['N2 M109 S200', 'N3 M108'], 'sent again once');
  answer('ok', 'ok');
  await Promise.all([heat, breakWait]);
  assert.deepEqual(accepted, ['M109 S200', 'M108']);
  assert.equal(sender.resends, 2);
});

test('a resent line damaged again is sent again', async () => {
  const { sender, written, answer } = harness();
  const move = sender.send('G1 X5');
  answer('Resend: 2', 'ok');
  answer('Error:checksum mismatch, Last Line: 1', 'Resend: 2', 'ok');
  assert.deepEqual(numbers(written), ['N2 G1 X5', 'N2 G1 X5', 'N2 G1 X5']);
  answer('ok');
  await move;
});

test('no answer: a probe follows; a wait probes at once; every probe unanswered ends the link', async () => {
  const { sender, written, dead, answer } = harness({ lineTimeoutMs: 30, longCommandTimeoutMs: 60_000, maxProbes: 2 });
  const lost = sender.send('G1 X5');
  answer('wait');
  assert.deepEqual(numbers(written), ['N2 G1 X5', 'N3 M105'], 'the firmware is idle: the line was lost');
  const deadline = Date.now() + 5_000;
  while (dead.length === 0 && Date.now() < deadline) await sleep(10);
  assert.deepEqual(numbers(written), ['N2 G1 X5', 'N3 M105', 'N4 M105']);
  assert.match(dead[0] ?? '', /answered neither line 2 \(G1 X5\) nor the 2 probes sent after it/);
  sender.close(new Error('gone'));
  await assert.rejects(lost, /gone/);
  await assert.rejects(sender.send('M105'), /gone/);
});

test('a probe reveals a lost line: the firmware asks for it, it goes again with the probe', async () => {
  const { sender, written, accepted, answer } = harness({ lineTimeoutMs: 30, longCommandTimeoutMs: 60_000, maxProbes: 3 });
  const move = sender.send('G1 X5');
  const deadline = Date.now() + 5_000;
  while (written.length < 2 && Date.now() < deadline) await sleep(5);
  answer('Error:Line Number is not Last Line Number+1, Last Line: 1', 'Resend: 2', 'ok');
  assert.deepEqual(numbers(written), ['N2 G1 X5', 'N3 M105', 'N2 G1 X5', 'N3 M105']);
  answer('ok', 'ok T:20.0 /0.0');
  await move;
  assert.deepEqual(accepted, ['G1 X5', 'M105']);
});
