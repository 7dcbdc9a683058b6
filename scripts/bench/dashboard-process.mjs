// The built dashboard as a child process of a bench: started on a free loopback port with a
// throw-away data dir, signed in through the first-run setup, stopped (and its data dir removed)
// at the end. Used by bench-dashboard.mjs and bench-fleet.mjs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BENCH_USER = { username: 'bench', password: 'bench-password-1234' };

const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;
/** Stderr kept for error messages once the dashboard is up: the last this many characters. */
const STDERR_TAIL = 16_384;

/**
 * Spawns `node <entry> --port 0 --bind 127.0.0.1 --data-dir <dir>`. `dataDir` defaults to a
 * fresh temp folder (removed by `stop`); `env` is added to this process's environment.
 * Returns `{ child, pid, dataDir, url, stderr, stop }`: `url` resolves with the base URL once the
 * dashboard logs "listening on", `stderr()` is what it wrote lately, `stop()` sends SIGTERM
 * (SIGKILL after 10 s) and resolves when it has exited.
 */
export function startDashboard(entry, { dataDir, env = {}, args = [] } = {}) {
  const ownDir = dataDir === undefined;
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'printyard-bench-dashboard-'));
  const child = spawn(process.execPath, [entry, '--port', '0', '--bind', '127.0.0.1', '--data-dir', dir, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.on('error', () => {});
  let stderr = '';
  let listening = false;
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the dashboard did not start in time:\n${stderr}`)), START_TIMEOUT_MS);
    child.stderr.setEncoding('utf8').on('data', (t) => {
      stderr += t;
      if (!listening) {
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) {
          listening = true;
          clearTimeout(timer);
          resolve(m[1]);
        }
      }
      if (listening && stderr.length > 2 * STDERR_TAIL) stderr = stderr.slice(-STDERR_TAIL);
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the dashboard exited (${code ?? signal}):\n${stderr}`));
    });
  });
  url.catch(() => {});
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  };
  return { child, pid: child.pid, dataDir: dir, url, stderr: () => stderr, exited, stop };
}

/** One JSON request; resolves with `{ status, json, text }` (json undefined when the body is not JSON). */
export async function call(base, method, path, { body, headers = {} } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/**
 * The first admin (first-run setup), a session token and, with `apiKey`, an API key of that role;
 * null when this build has no auth routes yet (`/api/auth/setup` answers 404).
 */
export async function signIn(base, { apiKey = 'view', user = BENCH_USER } = {}) {
  const setup = await call(base, 'POST', '/api/auth/setup', { body: user });
  if (setup.status === 404) return null;
  if (setup.status !== 201 && setup.status !== 200) throw new Error(`POST /api/auth/setup: HTTP ${setup.status} ${setup.text}`);
  const login = await call(base, 'POST', '/api/auth/login', { body: user });
  if (login.status !== 200) throw new Error(`POST /api/auth/login: HTTP ${login.status} ${login.text}`);
  const token = login.json.token;
  if (!apiKey) return { token, apiKey: null };
  const key = await call(base, 'POST', '/api/api-keys', { body: { name: 'bench', role: apiKey }, headers: { authorization: `Bearer ${token}` } });
  if (key.status !== 201) throw new Error(`POST /api/api-keys: HTTP ${key.status} ${key.text}`);
  return { token, apiKey: key.json.key };
}
