import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { runExecutable, type ExecutableRun } from '../fixtures/executable.js';

const MAIN = fileURLToPath(new URL('../../appliance/dashboard/main.js', import.meta.url));
const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-dashboard-main-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('PRINTYARD_') && !k.startsWith('SLICER_')) env[k] = v;
  }
  return { ...env, ...extra };
}

/** Runs the executable; `whenListening` is called once it logs its URL (then it must be stopped). */
function run(args: string[], env: Record<string, string> = {}, whenListening?: (url: string, child: ChildProcess) => void): Promise<ExecutableRun> {
  return runExecutable(MAIN, args, cleanEnv(env), whenListening);
}

test('--help lists the options and the config.json keys', async () => {
  const { code, stdout } = await run(['--help']);
  assert.equal(code, 0);
  assert.match(stdout, /--port VALUE .*default: 3000; env PRINTYARD_DASHBOARD_PORT/);
  assert.match(stdout, /--bind VALUE .*default: 0\.0\.0\.0/);
  assert.match(stdout, /--data-dir/);
  assert.match(stdout, /rate_limit\.per_minute .*env PRINTYARD_DASHBOARD_RATE_LIMIT_PER_MINUTE/);
  assert.match(stdout, /slicer_service\.url .*env SLICER_URL/);
});

test('a bad option exits with 2 and says which', async () => {
  const bad = await run(['--port', 'eighty']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--port: expected an integer from 0 to 65535, got "eighty"/);
  const unknown = await run(['--colour', 'red']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown option --colour/);
  const env = await run([], { PRINTYARD_DASHBOARD_PORT: '70000' });
  assert.equal(env.code, 2);
  assert.match(env.stderr, /PRINTYARD_DASHBOARD_PORT/);
});

test('an invalid config.json exits with 2 naming the key', async () => {
  const dataDir = path.join(root, 'bad-config');
  mkdirSync(dataDir);
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ rate_limit: { per_minute: 0 } }));
  const { code, stderr } = await run(['--port', '0', '--bind', '127.0.0.1', '--data-dir', dataDir]);
  assert.equal(code, 2);
  assert.match(stderr, /config\.json: rate_limit\.per_minute must be an integer/);
});

test('a taken port exits with 1 and says so', async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const { code, stderr } = await run(['--port', String(port), '--bind', '127.0.0.1', '--data-dir', path.join(root, 'taken')]);
    assert.equal(code, 1);
    assert.match(stderr, new RegExp(`cannot start: port ${port} on 127\\.0\\.0\\.1 is already in use`));
  } finally {
    blocker.close();
  }
});

test('it serves from $PRINTYARD_DATA_DIR and stops cleanly on SIGTERM', async () => {
  const dataDir = path.join(root, 'from-env');
  let health: unknown = null;
  const { code, stderr } = await run(['--port', '0', '--bind', '127.0.0.1'], { PRINTYARD_DATA_DIR: dataDir }, (url, child) => {
    void fetch(`${url}/api/health`)
      .then((r) => r.json())
      .then(
        (body) => {
          health = body;
          child.kill('SIGTERM');
        },
        () => child.kill('SIGTERM'),
      );
  });
  assert.equal(code, 0, stderr);
  assert.equal((health as { ok: boolean }).ok, true);
  assert.match(stderr, /SIGTERM: stopping/);
  assert.match(stderr, /INFO {2}printyard-dashboard: stopped/);
  assert.equal(JSON.parse(readFileSync(path.join(dataDir, 'config.json'), 'utf8')).rate_limit.per_minute, 200);
});
