/**
 * A webhook receiver on a loopback port: records every request (headers and exact body) and
 * answers with the statuses the test scripts, one per request (the last one repeats).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Resolves once this many requests have arrived. */
  waitFor(count: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** `statuses[i]` answers the i-th request; `'hang'` never answers. */
export async function startReceiver(statuses: ReadonlyArray<number | 'hang'> = [204]): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<{ count: number; resolve: (r: ReceivedRequest[]) => void }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      for (const w of [...waiters]) {
        if (requests.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(requests.slice(0, w.count));
        }
      }
      const status = statuses[Math.min(requests.length - 1, statuses.length - 1)];
      if (status === 'hang') return;
      res.statusCode = status;
      res.end(status >= 400 ? 'no' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    waitFor(count) {
      if (requests.length >= count) return Promise.resolve(requests.slice(0, count));
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
