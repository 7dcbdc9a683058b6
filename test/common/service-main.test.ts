import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runExecutable, type ExecutableRun } from '../fixtures/executable.js';

const TOY = fileURLToPath(new URL('../fixtures/toy-service.js', import.meta.url));

/** Runs the toy service; once it says where it listens, `signals` are sent 100 ms apart. */
async function run(args: string[], signals: NodeJS.Signals[] = [], env: Record<string, string> = {}): Promise<ExecutableRun & { ms: number }> {
  const t0 = Date.now();
  const result = await runExecutable(TOY, args, { PATH: process.env.PATH ?? '', ...env }, (_url, child) => {
    for (const [i, signal] of signals.entries()) setTimeout(() => child.kill(signal), 100 * (i + 1));
  });
  return { ...result, ms: Date.now() - t0 };
}

test('--help is built from the schema, with --help and --version in the same table; --version prints the version', async () => {
  const help = await run(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: toy-service \[options\]\n\nA service for tests\.\n\nOptions \(also read from TOY_\* environment variables\):\n/);
  assert.match(help.stdout, /\n {2}--stop-ms VALUE {20}how long a graceful stop takes \(default: 0; env TOY_STOP_MS\)\n/);
  assert.match(help.stdout, /\n {2}--version {26}print the version\n\nMore about the toy\.\n$/);
  const version = await run(['--version']);
  assert.deepEqual([version.code, version.stdout], [0, '0.1.0\n']);
});

test('invalid options exit 2 naming them; a configuration error at start exits 2, any other failure 1', async () => {
  const bad = await run(['--stop-ms', 'soon']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, 'toy-service: --stop-ms: expected an integer of at least 0, got "soon"\nRun toy-service --help for the options.\n');
  const env = await run([], [], { TOY_START: 'maybe' });
  assert.equal(env.code, 2);
  assert.match(env.stderr, /TOY_START: expected one of ok, bad-config, fail, got "maybe"/);
  const config = await run(['--start', 'bad-config']);
  assert.equal(config.code, 2);
  assert.match(config.stderr, /ERROR toy-service: cannot start: toy\.json: colour: expected a string, got 3/);
  const failed = await run(['--start', 'fail']);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /ERROR toy-service: cannot start: port 1 on toy is already in use/);
});

test('SIGTERM stops gracefully and exits 0; a repeated SIGTERM does not cut the stop short', async () => {
  const r = await run(['--stop-ms', '600', '--log-level', 'debug', '--secret', 'hunter2'], ['SIGTERM', 'SIGTERM']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /DEBUG toy-service: options .*secret=\(set\)/);
  assert.doesNotMatch(r.stderr, /hunter2/);
  assert.match(r.stderr, /INFO {2}toy-service: toy-service 0\.1\.0 listening on toy:\/\/here dir=\/toy\n/);
  assert.match(r.stderr, /SIGTERM: stopping[\s\S]*SIGTERM: already stopping[\s\S]*INFO {2}toy-service: stopped/);
  assert.ok(r.ms >= 700, `the stop took its time (${r.ms} ms)`);
});

test('a second Ctrl-C hurries the stop where the service can', async () => {
  const r = await run(['--stop-ms', '60000'], ['SIGINT', 'SIGINT']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /SIGINT: stopping[\s\S]*WARN {2}toy-service: SIGINT again: hurrying[\s\S]*stopped/);
  assert.ok(r.ms < 20_000);
});
