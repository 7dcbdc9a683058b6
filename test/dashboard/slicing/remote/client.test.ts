import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import { RemoteSlicerClient } from '../../../../appliance/dashboard/slicing/remote/client.js';
import { RemoteUnavailableError, UNREACHABLE } from '../../../../appliance/dashboard/slicing/remote/errors.js';
import { followSliceStream, StreamIdleError } from '../../../../appliance/dashboard/slicing/remote/slice-stream.js';
import { startFakeUpstream } from '../../../fixtures/fake-slicer-upstream.js';

const sockets: net.Socket[] = [];
/** Accepts connections and never answers. */
const silent = net.createServer((socket) => void sockets.push(socket));
after(() => {
  for (const socket of sockets) socket.destroy();
  silent.close();
});

test('a service that accepts but never answers: the call gives up at its deadline, as "unavailable" (the public reason says only that)', async () => {
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
  const client = new RemoteSlicerClient(() => ({ url, token: '' }), { probeMs: 200, headersMs: 300 });
  const timedOut = (pattern: RegExp) => (err: unknown) =>
    err instanceof RemoteUnavailableError && err.message === UNREACHABLE && pattern.test(err.detail);
  await assert.rejects(client.version(), timedOut(/did not answer the version check within 0\.2 s/));
  await assert.rejects(client.jobs(), timedOut(/did not answer the job list within 0\.3 s/));
  const cancel = new AbortController();
  const call = client.open('/api/jobs', { what: 'the job list', signal: cancel.signal, timeoutMs: 10_000 });
  cancel.abort();
  await assert.rejects(call, { status: 409, code: 'ERR_CANCELLED' });
});

test('an event stream that goes silent is given up after the idle time; the token goes along on every call', async () => {
  const upstream = await startFakeUpstream({ slice: 'stall', token: 't' });
  try {
    const client = new RemoteSlicerClient(() => ({ url: upstream.url, token: 't' }));
    const form = new FormData();
    form.append('model', new Blob(['solid x\nendsolid x\n']), 'x.stl');
    const response = await client.open('/api/slice', { what: 'slicing', method: 'POST', body: form, accept: 'text/event-stream' });
    const progress: Array<{ stage: string; pct: number }> = [];
    await assert.rejects(
      followSliceStream(response.body!, { idleMs: 300, onProgress: (p) => progress.push(p) }),
      (err: unknown) => err instanceof StreamIdleError && /sent nothing for 0\.3 s; SSE stream ended without a done event/.test(err.message),
    );
    assert.deepEqual(progress, [{ stage: 'loading', pct: 5 }]);
    assert.deepEqual(
      upstream.requests.map((r) => r.authorization),
      ['Bearer t'],
    );
  } finally {
    await upstream.close();
  }
});
