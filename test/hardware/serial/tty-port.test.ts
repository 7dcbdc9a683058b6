/**
 * The hang-up-safe serial reader: when the far side of a pty vanishes while a read is in flight,
 * the port closes with a disconnect error instead of spinning on zero-byte reads. Keeping libuv's
 * thread pool busy makes reads wait in its queue, so the hang-up lands between a read's start and
 * its execution, which is the case serialport's own reader gets wrong. The same delay makes a
 * port closed on purpose find its read coming back with "no data" after the close, when polling
 * the destroyed poller would crash the process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pbkdf2 } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openTty } from '../../../appliance/hardware/serial/tty-port.js';

/** A pty at `<dir>/port` whose other side is socat's stdin (a pipe, written without the thread pool). */
async function pipedPty(dir: string) {
  const child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${dir}/port`, 'STDIO'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (text: string) => {
      log += text;
      if (/starting data transfer loop/.test(log)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`socat exited (${code}):\n${log}`)));
  });
  return child;
}

/** Keeps the thread pool busy until stopped. */
function busyThreadPool(): () => void {
  let running = true;
  const spin = () => {
    if (running) pbkdf2('secret', 'salt', 20_000, 32, 'sha256', spin);
  };
  for (let k = 0; k < 8; k++) spin();
  return () => {
    running = false;
  };
}

test('a port whose pty hangs up under a read in flight closes with a disconnect error', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-tty-'));
  try {
    for (let round = 0; round < 5; round++) {
      const socat = await pipedPty(dir);
      const port = await openTty(path.join(dir, 'port'));
      port.on('error', () => undefined);
      const closed = once(port, 'close');
      socat.stdin?.write('start\n');
      await once(port, 'data');
      const stopBusy = busyThreadPool();
      socat.stdin?.write('G1 X10 Y10 E0.5\n');
      await new Promise((resolve) => setTimeout(resolve, 20));
      socat.kill('SIGTERM');
      const [err] = (await closed) as [Error | null];
      stopBusy();
      assert.ok(err instanceof Error, 'closed by a disconnect');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a port closed while its read waits for data closes cleanly (its poller is not used after)', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-tty-'));
  try {
    for (let round = 0; round < 10; round++) {
      const socat = await pipedPty(dir);
      const port = await openTty(path.join(dir, 'port'));
      socat.stdin?.write('start\n');
      await once(port, 'data');
      // The next read finds no data (EAGAIN) only after the close, behind the busy thread pool.
      const stopBusy = busyThreadPool();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise<void>((resolve, reject) => port.close((err) => (err ? reject(err) : resolve())));
      await new Promise((resolve) => setTimeout(resolve, 50));
      stopBusy();
      assert.equal(port.isOpen, false);
      socat.kill('SIGTERM');
      await once(socat, 'exit');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
