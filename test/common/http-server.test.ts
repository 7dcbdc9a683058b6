import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { test } from 'node:test';
import { assertNativeUws, createHttpServer, isLoopback, listen } from '../../appliance/common/http-server.js';
import { createLogger } from '../../appliance/common/logger.js';
import { startApp } from '../fixtures/http-app.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });

test('the native uWebSockets.js build is loaded on this Node', () => {
  assert.doesNotThrow(assertNativeUws);
});

test('loopback addresses are told apart from the rest', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) assert.equal(isLoopback(h), true, h);
  for (const h of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', 'printyard.local', '128.0.0.1']) assert.equal(isLoopback(h), false, h);
});

test('port 0 picks a free port and the server answers there', async () => {
  const t = await startApp((app) => app.get('/ping', (_req, res) => void res.send('pong')));
  try {
    assert.match(t.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await (await fetch(`${t.url}/ping`)).text(), 'pong');
  } finally {
    t.close();
  }
});

test('a taken port is refused with a clear error, even though uWS would share it', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    await assert.rejects(listen(createHttpServer({ maxBodyBytes: 1024, log }), '127.0.0.1', port), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'ERR_ADDRESS_IN_USE');
      assert.match(err.message, new RegExp(`port ${port} on 127.0.0.1 is already in use`));
      return true;
    });
  } finally {
    holder.close();
  }
  const first = await startApp(() => undefined);
  try {
    const taken = Number(new URL(first.url).port);
    await assert.rejects(listen(createHttpServer({ maxBodyBytes: 1024, log }), '127.0.0.1', taken), /already in use/);
  } finally {
    first.close();
  }
});

/**
 * A service in a child process on `port` (0: a free one); resolves with the port it bound, or
 * rejects with what it wrote to stderr when it could not start.
 */
function startChild(port: number): Promise<{ child: ChildProcess; port: number }> {
  const module = new URL('../../appliance/common/http-server.js', import.meta.url).href;
  const logger = new URL('../../appliance/common/logger.js', import.meta.url).href;
  const script = `import { createHttpServer, listen } from ${JSON.stringify(module)};
import { createLogger } from ${JSON.stringify(logger)};
const app = createHttpServer({ maxBodyBytes: 1024, log: createLogger({ name: 'child', level: 'error' }) });
app.get('/ping', (_req, res) => void res.send('pong'));
listen(app, '127.0.0.1', Number(process.argv[1])).then((p) => console.log(p), (err) => { console.error(err.message); process.exit(3); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').once('data', (text: string) => resolve({ child, port: Number(text.trim()) }));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr.trim()}`)));
  });
}

/** Sockets in TIME_WAIT (state 06 in /proc/net/tcp) whose local port is `port`. */
function timeWaits(port: number): number {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1]?.endsWith(hex) && fields[3] === '06').length;
}

/** Kills the service while a keep-alive connection is open, and waits for its TIME_WAIT. */
async function crashWithConnectionOpen(service: { child: ChildProcess; port: number }): Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  const closed = new Promise<void>((resolve) => {
    http.get({ host: '127.0.0.1', port: service.port, path: '/ping', agent }, (res) => {
      res.resume();
      res.socket.once('close', () => resolve());
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGKILL');
  await exited;
  await closed;
  agent.destroy();
  const deadline = Date.now() + 10_000;
  while (timeWaits(service.port) === 0) {
    assert.ok(Date.now() < deadline, 'the killed service left a connection in TIME_WAIT');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const [what, fixed] of [
  ['on a free port (port 0)', false],
  ['on a fixed port (as systemd runs it)', true],
] as const) {
  test(`a service ${what} killed with a connection open starts again on its port at once`, async () => {
    let port = 0;
    if (fixed) {
      const holder = net.createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      port = (holder.address() as net.AddressInfo).port;
      await new Promise((resolve) => holder.close(resolve));
    }
    const first = await startChild(port);
    await crashWithConnectionOpen(first);
    const second = await startChild(first.port);
    try {
      assert.equal(second.port, first.port);
      assert.equal(await (await fetch(`http://127.0.0.1:${second.port}/ping`)).text(), 'pong');
    } finally {
      second.child.kill('SIGKILL');
    }
  });
}
