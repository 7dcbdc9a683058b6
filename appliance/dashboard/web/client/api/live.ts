/**
 * The live feed: one WebSocket to /ws (live/README.md) for the whole app. The token goes in the
 * first message, not the URL, so it never lands in a proxy's or the server's access log. The
 * connection comes back by itself with a growing pause (1 s up to 15 s); each time it is
 * established again, `onOpen` handlers run so that pages reload what they may have missed.
 * Close code 4401 means the credentials are no longer good: the session ends.
 */
import { signal } from '@preact/signals';

export type LiveState = 'connecting' | 'live' | 'offline';

export interface LiveMessage {
  type: string;
  payload: unknown;
}

const UNAUTHORIZED = 4401;
const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 15_000;

export interface LiveOptions {
  token: () => string | null;
  /** The server refused `token` (4401). */
  unauthorized: (token: string) => void;
}

export class LiveConnection {
  readonly state = signal<LiveState>('offline');
  private socket: WebSocket | null = null;
  private retryMs = FIRST_RETRY_MS;
  private timer: number | undefined;
  private readonly handlers = new Map<string, Set<(payload: unknown) => void>>();
  private readonly openHandlers = new Set<() => void>();

  constructor(private readonly options: LiveOptions) {}

  /** Calls `handler` with the payload of every `type` message; returns the unsubscribe. */
  on(type: string, handler: (payload: unknown) => void): () => void {
    let set = this.handlers.get(type);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(type, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Runs `handler` each time the feed is (re)established; returns the unsubscribe. */
  onOpen(handler: () => void): () => void {
    this.openHandlers.add(handler);
    return () => this.openHandlers.delete(handler);
  }

  start(): void {
    if (this.socket !== null || this.options.token() === null) return;
    window.clearTimeout(this.timer);
    this.state.value = 'connecting';
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const token = this.options.token() ?? '';
    const socket = new WebSocket(`${scheme}//${window.location.host}/ws`);
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token }));
    socket.onmessage = (event) => this.receive(String(event.data));
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.state.value = 'offline';
      if (event.code === UNAUTHORIZED) {
        this.options.unauthorized(token);
        return;
      }
      this.timer = window.setTimeout(() => this.start(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, LONGEST_RETRY_MS);
    };
  }

  stop(): void {
    window.clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
    this.state.value = 'offline';
  }

  private receive(text: string): void {
    let message: LiveMessage;
    try {
      message = JSON.parse(text) as LiveMessage;
    } catch {
      return;
    }
    if (message.type === 'hello') {
      this.state.value = 'live';
      this.retryMs = FIRST_RETRY_MS;
      for (const handler of this.openHandlers) handler();
      return;
    }
    for (const handler of this.handlers.get(message.type) ?? []) handler(message.payload);
  }
}
