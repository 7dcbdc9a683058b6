/**
 * A WebSocket test client over the `ws` package: messages queue up until the test asks for them,
 * and the outcome of the connection (opened, closed with a code) is a promise. Also a raw TCP
 * client that does the upgrade handshake by hand and then never answers anything — a dead peer as
 * the server sees one.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';

export interface Received {
  type: string;
  payload: Record<string, unknown>;
}

export interface Closed {
  code: number;
  reason: string;
}

export interface TestClient {
  ws: WebSocket;
  /** Resolves when the socket is open; rejects when it could not open. */
  opened: Promise<void>;
  closed: Promise<Closed>;
  /** The next message not yet taken. */
  next(): Promise<Received>;
  /** Skips messages until one of this type arrives. */
  nextOfType(type: string): Promise<Received>;
  /** Skips messages until one of this type whose payload matches arrives; fails after `timeoutMs`, naming `what`. */
  nextMatching(type: string, match: (payload: Record<string, any>) => boolean, what: string, timeoutMs?: number): Promise<Received>;
  /** Messages received and not yet taken. */
  pending(): Received[];
  send(message: unknown): void;
}

export function wsUrl(httpUrl: string, query = ''): string {
  return `${httpUrl.replace(/^http/, 'ws')}/ws${query}`;
}

export function connect(url: string, headers: Record<string, string> = {}): TestClient {
  const ws = new WebSocket(url, { headers });
  const queue: Received[] = [];
  const waiters: Array<(m: Received) => void> = [];
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as Received;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const closed = new Promise<Closed>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  opened.catch(() => {});
  const next = (): Promise<Received> => {
    const queued = queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => waiters.push(resolve));
  };
  const nextOfType = async (type: string): Promise<Received> => {
    for (;;) {
      const message = await next();
      if (message.type === type) return message;
    }
  };
  return {
    ws,
    opened,
    closed,
    next,
    nextOfType,
    async nextMatching(type, match, what, timeoutMs = 15_000) {
      const found = (async () => {
        for (;;) {
          const message = await nextOfType(type);
          if (match(message.payload)) return message;
        }
      })();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no ${type} on the WebSocket: ${what}`)), timeoutMs);
      });
      try {
        return await Promise.race([found, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    pending: () => [...queue],
    send: (message) => ws.send(JSON.stringify(message)),
  };
}

export interface SilentPeer {
  /** Resolves when the server ends the TCP connection. */
  ended: Promise<void>;
  destroy(): void;
}

/** Completes the upgrade handshake on a raw socket, then reads and ignores everything (no pongs). */
export function silentPeer(httpUrl: string, query: string): Promise<SilentPeer> {
  const { hostname, port } = new URL(httpUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) {
        socket.on('data', () => {});
        resolve({ ended, destroy: () => socket.destroy() });
      } else {
        reject(new Error(`handshake refused: ${head.split('\r\n')[0]}`));
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(
        [
          `GET /ws${query} HTTP/1.1`,
          `Host: ${hostname}:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          '',
        ].join('\r\n'),
      );
    });
  });
}
