/**
 * The WebSocket hub: who is connected, what each one wants, and the fan-out of bus events.
 *
 * One event is serialised once and written to every interested client. A client that stops
 * reading is never waited for: before each write its backlog (uWS backpressure) is checked and
 * above the limit it is closed and counted, so the others keep their pace. A heartbeat pings every
 * interval; a client that has not answered the previous ping by the next one is closed as dead,
 * and its credentials are checked again so an expired or revoked token does not keep a feed open.
 *
 * A connection is authenticated after it opened (see websocket.ts for why not during the
 * upgrade): with the credentials it came with, or with its first message. Messages it sends
 * while that check runs are held and handled once it is admitted, after the hello.
 */
import { AppError, ErrorCode, isAppError } from '../../common/errors.js';
import { packageVersion } from '../../common/version.js';
import type { Logger } from '../../common/logger.js';
import type { DashboardEventType } from '../events.js';
import type { Authenticator, Principal } from '../http/route.js';
import { CloseCode, EVENT_TYPES, MAX_CLIENT_MESSAGE_BYTES, parseClientMessage, type ServerMessage } from './protocol.js';

/** What the hub needs of a connection; hyper-express's Websocket has this shape. */
export interface LiveSocket {
  /** uWS answers 1 (written), 0 (buffered) or 2 (dropped: over its own backpressure cap). */
  send(text: string): number | boolean;
  /** Bytes waiting in uWS for the peer to read. */
  readonly buffered: number;
  ping(): unknown;
  /** A close frame with a code; the socket's close handler runs at once. */
  close(code: number, reason: string): void;
  /** Drops the connection without a close frame. */
  destroy(): void;
}

/** Asks the authenticator whether the credentials a client came with are (still) good. */
export type CredentialCheck = () => Promise<Principal | null>;

export interface Credentials {
  principal: Principal;
  recheck: CredentialCheck;
}

/** What clients may do over the socket besides subscribing, with the REST routes' effect and role. */
export interface LiveActions {
  /** The queue's plate confirmation (`POST /api/printers/:id/plate-cleared`); answers the plate. */
  plateCleared(printerId: string, by: string): Promise<unknown>;
}

export interface LiveHubOptions {
  /** Ping interval; a client that has not ponged by the next ping is dead. */
  heartbeatMs: number;
  /** How long a connection may take to authenticate (its `auth` message included). */
  authTimeoutMs: number;
  /** Backlog above which a client counts as too slow and is closed. */
  maxBufferedBytes: number;
}

export const DEFAULT_HUB_OPTIONS: LiveHubOptions = {
  heartbeatMs: 30_000,
  authTimeoutMs: 5_000,
  maxBufferedBytes: 1024 * 1024,
};

const UWS_DROPPED = 2;
/** Messages held while a client's credentials are checked; a client that sends more is misbehaving. */
const MAX_HELD_MESSAGES = 16;

export interface LiveHubStats {
  clients: number;
  awaiting_auth: number;
  connections_total: number;
  messages_sent: number;
  dropped_slow_clients: number;
  dead_peers_closed: number;
  closed_unauthorized: number;
}

/** One connection. The hub owns it; the transport only holds it to route socket callbacks. */
export interface LiveClient {
  readonly socket: LiveSocket;
  state: 'awaiting_auth' | 'authenticating' | 'open' | 'closed';
  credentials: Credentials | null;
  /** Event types this client wants; null for all. */
  types: ReadonlySet<DashboardEventType> | null;
  awaitingPong: boolean;
  authTimer: NodeJS.Timeout | null;
  /** Messages received while authenticating, in order. */
  held: string[];
}

export class LiveHub {
  private readonly clients = new Set<LiveClient>();
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly counters = {
    connections_total: 0,
    messages_sent: 0,
    dropped_slow_clients: 0,
    dead_peers_closed: 0,
    closed_unauthorized: 0,
  };

  constructor(
    private readonly auth: Authenticator,
    private readonly log: Logger,
    readonly options: LiveHubOptions = DEFAULT_HUB_OPTIONS,
    private readonly actions: LiveActions | null = null,
  ) {}

  start(): void {
    this.heartbeat ??= setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Stops the heartbeat and closes every connection with "going away". */
  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    for (const client of [...this.clients]) this.close(client, CloseCode.goingAway, 'server stopping');
  }

  /** A socket opened, with a check of the credentials of its upgrade request or none (then it must send `auth`). */
  connect(socket: LiveSocket, check: CredentialCheck | null): LiveClient {
    const client: LiveClient = {
      socket,
      state: 'awaiting_auth',
      credentials: null,
      types: null,
      awaitingPong: false,
      authTimer: null,
      held: [],
    };
    this.clients.add(client);
    this.counters.connections_total++;
    client.authTimer = setTimeout(() => {
      if (client.state === 'awaiting_auth') this.refuse(client, 'no credentials in time: send {"type":"auth","token":"…"} first');
      else if (client.state === 'authenticating') this.refuse(client, 'authentication took too long');
    }, this.options.authTimeoutMs);
    if (check) this.authenticate(client, check);
    return client;
  }

  /** The socket closed, whoever closed it. */
  disconnect(client: LiveClient): void {
    client.state = 'closed';
    if (client.authTimer) clearTimeout(client.authTimer);
    this.clients.delete(client);
  }

  /** Any frame, ping or pong from the peer proves it is alive. */
  alive(client: LiveClient): void {
    client.awaitingPong = false;
  }

  /** A message over the size limit, not read: the connection closes with 1009, whatever its state. */
  tooLarge(client: LiveClient, bytes: number): void {
    this.close(client, CloseCode.tooBig, `message of ${bytes} bytes; the limit is ${MAX_CLIENT_MESSAGE_BYTES}`);
  }

  receive(client: LiveClient, text: string): void {
    this.alive(client);
    if (client.state === 'authenticating') {
      if (client.held.length < MAX_HELD_MESSAGES) client.held.push(text);
      else this.close(client, CloseCode.policy, 'too many messages before authentication');
      return;
    }
    const parsed = parseClientMessage(text);
    if (client.state === 'awaiting_auth') {
      if (parsed.ok && parsed.message.type === 'auth') {
        const { token } = parsed.message;
        this.authenticate(client, () => this.auth.authenticateToken(token));
      } else {
        this.refuse(client, 'authenticate first: {"type":"auth","token":"…"}');
      }
      return;
    }
    if (client.state !== 'open') return;
    if (!parsed.ok) {
      this.reply(client, { type: 'error', payload: { code: 'ERR_VALIDATION', error: parsed.error } });
      return;
    }
    if (parsed.message.type === 'auth') {
      this.reply(client, { type: 'error', payload: { code: 'ERR_VALIDATION', error: 'already authenticated' } });
      return;
    }
    if (parsed.message.type === 'plate.clear') {
      void this.clearPlate(client, parsed.message.printer_id);
      return;
    }
    client.types = parsed.message.types === null ? null : new Set(parsed.message.types);
    this.reply(client, { type: 'subscribed', payload: { types: client.types ? [...client.types] : EVENT_TYPES } });
  }

  /**
   * `plate.clear`: the print role, as the endpoint asks; the effect and the `printer.plate` event
   * are the queue's. Refusals (role, unknown printer, printing) answer an `error`; the socket stays.
   */
  private async clearPlate(client: LiveClient, printerId: string): Promise<void> {
    const principal = client.credentials?.principal;
    if (!principal) return;
    try {
      if (principal.role === 'view') throw new AppError(ErrorCode.forbidden, 403, `this needs the print level; ${principal.name} has view`);
      if (this.actions === null) throw new AppError(ErrorCode.unavailable, 503, 'the queue is not running');
      const plate = await this.actions.plateCleared(printerId, principal.name);
      if (client.state === 'open') this.reply(client, { type: 'plate.cleared', payload: plate });
    } catch (err) {
      const known = isAppError(err);
      if (!known) this.log.error(`plate.clear of ${printerId} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const payload = known ? { code: err.code, error: err.message } : { code: ErrorCode.internal, error: 'internal error' };
      if (client.state === 'open') this.reply(client, { type: 'error', payload });
    }
  }

  /** Sends one event to every open client that wants its type. */
  broadcast(type: DashboardEventType, payload: unknown): void {
    let text: string | null = null;
    for (const client of this.clients) {
      if (client.state !== 'open' || (client.types && !client.types.has(type))) continue;
      text ??= JSON.stringify({ type, payload });
      this.write(client, text);
    }
  }

  stats(): LiveHubStats {
    let open = 0;
    for (const client of this.clients) if (client.state === 'open') open++;
    return { clients: open, awaiting_auth: this.clients.size - open, ...this.counters };
  }

  private authenticate(client: LiveClient, check: CredentialCheck): void {
    client.state = 'authenticating';
    check().then(
      (principal) => {
        if (client.state !== 'authenticating') return;
        if (principal) this.admit(client, { principal, recheck: check });
        else this.refuse(client, 'invalid or expired token');
      },
      (err: unknown) => {
        this.log.error(`websocket authentication failed: ${err instanceof Error ? err.message : String(err)}`);
        if (client.state === 'authenticating') this.refuse(client, 'authentication failed');
      },
    );
  }

  private admit(client: LiveClient, credentials: Credentials): void {
    if (client.authTimer) clearTimeout(client.authTimer);
    client.authTimer = null;
    client.credentials = credentials;
    client.state = 'open';
    const { principal } = credentials;
    this.reply(client, {
      type: 'hello',
      payload: { version: packageVersion(), heartbeat_ms: this.options.heartbeatMs, types: EVENT_TYPES, user: principal.name, role: principal.role },
    });
    for (const text of client.held.splice(0)) this.receive(client, text);
  }

  private reply(client: LiveClient, message: ServerMessage): void {
    this.write(client, JSON.stringify(message));
  }

  private write(client: LiveClient, text: string): void {
    if (client.socket.buffered > this.options.maxBufferedBytes) {
      this.dropSlow(client);
      return;
    }
    const result = client.socket.send(text);
    if (result === UWS_DROPPED) this.dropSlow(client);
    else this.counters.messages_sent++;
  }

  private dropSlow(client: LiveClient): void {
    this.counters.dropped_slow_clients++;
    this.log.warn('websocket client too slow, closing it', { user: client.credentials?.principal.name, backlog: client.socket.buffered });
    this.close(client, CloseCode.tooSlow, `too slow: backlog over ${this.options.maxBufferedBytes} bytes`);
  }

  private refuse(client: LiveClient, reason: string): void {
    this.counters.closed_unauthorized++;
    this.close(client, CloseCode.unauthorized, reason);
  }

  private close(client: LiveClient, code: number, reason: string): void {
    if (client.state === 'closed') return;
    this.disconnect(client);
    client.socket.close(code, reason);
  }

  private beat(): void {
    const now = Date.now();
    for (const client of [...this.clients]) {
      if (client.state !== 'open' || !client.credentials) continue;
      if (client.awaitingPong) {
        this.counters.dead_peers_closed++;
        this.disconnect(client);
        client.socket.destroy();
        continue;
      }
      const { principal, recheck } = client.credentials;
      if (principal.token_exp !== undefined && principal.token_exp * 1000 <= now) {
        this.refuse(client, 'token expired');
        continue;
      }
      client.awaitingPong = true;
      client.socket.ping();
      this.confirm(client, recheck);
    }
  }

  /** Closes the client when its credentials no longer authenticate (revoked token, deleted key or user). */
  private confirm(client: LiveClient, recheck: CredentialCheck): void {
    recheck().then(
      (principal) => {
        if (client.state !== 'open' || !client.credentials) return;
        if (principal) client.credentials = { principal, recheck };
        else this.refuse(client, 'token expired or revoked');
      },
      (err: unknown) => this.log.warn(`websocket credential check failed, keeping the client: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
}
