/**
 * The dashboard as the nodes see it: JSON requests with the config node's API key, and one shared
 * WebSocket (`/ws`) whose events go to every node that listens. The socket opens with the first
 * listener, closes with the last, and reconnects after a drop, waiting longer each time (1 s up to
 * 30 s); a refused key (close code 4401) is reported and retried at the slowest pace.
 */

const WebSocket = require('ws');

const REQUEST_TIMEOUT_MS = 15_000;
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;
const UNAUTHORIZED = 4401;

class DashboardError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

class DashboardClient {
  /** @param {{url: string, apiKey: string, onState?: (state: string, detail?: string) => void}} options */
  constructor(options) {
    this.url = options.url.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.onState = options.onState ?? (() => {});
    this.listeners = new Set();
    this.socket = null;
    this.retryMs = FIRST_RETRY_MS;
    this.retryTimer = null;
    this.closed = false;
  }

  /** A JSON request; the parsed answer (null for 204), or a DashboardError with the API's code and message. */
  async request(method, path, body) {
    if (!this.apiKey) throw new DashboardError(0, 'ERR_NO_API_KEY', 'the Printyard config node has no API key');
    const headers = { 'x-api-key': this.apiKey };
    let payload;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(this.url + path, { method, headers, body: payload, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await response.text();
    let json = null;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text);
    if (!response.ok) {
      const message = json?.error ?? (text || response.statusText);
      throw new DashboardError(response.status, json?.code ?? 'ERR_HTTP', `${method} ${path}: ${response.status} ${message}`);
    }
    return json;
  }

  /** Calls listener(type, payload) for every live event until the returned function is called. */
  subscribe(listener) {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.connect();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.disconnect();
    };
  }

  connect() {
    if (this.closed || this.socket || this.listeners.size === 0) return;
    if (!this.apiKey) {
      this.onState('error', 'no API key');
      return;
    }
    const socket = new WebSocket(`${this.url.replace(/^http/, 'ws')}/ws`, { headers: { 'x-api-key': this.apiKey } });
    this.socket = socket;
    this.onState('connecting');
    socket.on('message', (data) => this.received(String(data)));
    socket.on('error', () => {}); // the close that follows says what happened
    socket.on('close', (code, reason) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed || this.listeners.size === 0) return;
      const refused = code === UNAUTHORIZED;
      this.onState('error', refused ? `API key refused: ${reason}` : 'disconnected');
      const delay = refused ? LAST_RETRY_MS : this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.connect();
      }, delay);
    });
  }

  received(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === 'hello') {
      this.retryMs = FIRST_RETRY_MS;
      this.onState('connected');
      return;
    }
    if (message.type === 'error' || message.type === 'subscribed') return;
    for (const listener of this.listeners) listener(message.type, message.payload);
  }

  disconnect() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
  }

  close() {
    this.closed = true;
    this.listeners.clear();
    this.disconnect();
  }
}

module.exports = { DashboardClient, DashboardError };
