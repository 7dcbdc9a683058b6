/** The virtual-marlin program: options, the port it prints, its console, a clean stop. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { LineLog, SerialHost } from '../../../fixtures/virtual-marlin.js';

const MAIN = fileURLToPath(new URL('../../../../scripts/simulators/marlin/main.js', import.meta.url));
const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-vmarlin-cli-'));

after(() => rmSync(root, { recursive: true, force: true }));

function run(args: string[]): { child: ChildProcessWithoutNullStreams; stdout: LineLog; stderr: () => string } {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: 'pipe' });
  const stdout = new LineLog();
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    buffered += text;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) stdout.push(line);
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return { child, stdout, stderr: () => stderr };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

test('--help describes the options and the console', async () => {
  const { child, stdout } = run(['--help']);
  assert.equal(await exitCode(child), 0);
  const text = stdout.lines.join('\n');
  assert.match(text, /--link VALUE/);
  assert.match(text, /--faults VALUE/);
  assert.match(text, /pull \| plug/);
});

test('bad options exit with status 2 and say what is wrong', async () => {
  for (const [args, message] of [
    [[], /--link: a folder for the pty links is required/],
    [['--link', path.join(root, 'x'), '--faults', 'resend=2'], /--faults: fault resend: expected a rate from 0 to 1/],
    [['--link', path.join(root, 'x'), '--speed', '0'], /--speed: expected a number above 0/],
    [['--link', path.join(root, 'x'), '--bogus'], /unknown option --bogus/],
    [['--link', path.join(root, 'x'), '--temperature-noise', '-1'], /--temperature-noise: must be 0 or more/],
  ] as const) {
    const { child, stderr } = run([...args]);
    assert.equal(await exitCode(child), 2);
    assert.match(stderr(), message);
  }
});

test('it prints the port, serves the SD files, obeys its console and stops cleanly', { timeout: 60_000 }, async () => {
  const sdDir = path.join(root, 'sd');
  mkdirSync(sdDir);
  writeFileSync(path.join(sdDir, 'cube.gcode'), 'G28\nG1 X10\n');
  writeFileSync(path.join(sdDir, 'notes.txt'), 'not G-code');
  const link = path.join(root, 'link');
  const { child, stdout, stderr } = run(['--link', link, '--speed', '20', '--sd-dir', sdDir]);
  try {
    const hostPath = await stdout.next(/./);
    assert.equal(hostPath, path.join(link, 'host'));
    const host = await SerialHost.openBooted(hostPath);
    assert.deepEqual(await host.request('M20 L'), ['Begin file list', 'CUBE~1.GCO 11 cube.gcode', 'End file list', 'ok']);
    child.stdin.write('state\n');
    assert.match(await stdout.next(/^firmware /), /^firmware ready, cable in, host connected$/);
    child.stdin.write('bogus\n');
    await until(() => /unknown console command "bogus"/.test(stderr()));
    child.stdin.write('pull\n');
    await stdout.next('cable pulled');
    assert.ok((await host.waitClosed()) instanceof Error);
    child.kill('SIGTERM');
    assert.equal(await exitCode(child), 0);
    assert.equal(existsSync(hostPath), false);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
