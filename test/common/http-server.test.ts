import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { assertNativeUws, createHttpServer, isLoopback, listen } from '../../appliance/common/http-server.js';
import { startApp } from '../fixtures/http-app.js';

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
    await assert.rejects(listen(createHttpServer({ maxBodyBytes: 1024 }), '127.0.0.1', port), (err: Error & { code?: string }) => {
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
    await assert.rejects(listen(createHttpServer({ maxBodyBytes: 1024 }), '127.0.0.1', taken), /already in use/);
  } finally {
    first.close();
  }
});
