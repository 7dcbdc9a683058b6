/**
 * One MQTT session with a Bambu printer's broker, over a TLS socket the caller has already
 * verified (tls-trust.ts): MQTT 3.1.1, user `bblp`, the access code as password, subscribed to
 * `device/<serial>/report` and publishing only to `device/<serial>/request` (never to report:
 * the firmware ignores commands there). mqtt.js does not reconnect on its own here: a lost
 * session is reported once through `onClose`, and the driver's owner decides when to try again.
 *
 * A broker that refuses the credentials (CONNACK 4 "bad user name or password" or 5 "not
 * authorized") rejects with a PermanentConnectError: retrying only gets the client locked out.
 */
import type tls from 'node:tls';
import { MqttClient } from 'mqtt';
import { PermanentConnectError } from '../../driver.js';
import type { Json } from './report-state.js';

export interface MqttLinkOptions {
  serial: string;
  accessCode: string;
  clientId: string;
  timeoutMs: number;
  onMessage(message: Json): void;
  /** The session ended without `close()` being called. */
  onClose(reason: string): void;
}

const KEEPALIVE_S = 30;
const REFUSED_CREDENTIALS = new Set([4, 5]);

export function reportTopic(serial: string): string {
  return `device/${serial}/report`;
}

export function requestTopic(serial: string): string {
  return `device/${serial}/request`;
}

export class MqttLink {
  private sequence = 0;
  private closing = false;
  private lastError: Error | null = null;

  private constructor(
    private readonly client: MqttClient,
    private readonly options: MqttLinkOptions,
  ) {
    // Kept for the close reason; a listener must always be there, or mqtt.js errors would throw.
    client.on('error', (err) => (this.lastError = err));
  }

  /** Sends CONNECT over `socket`, waits for CONNACK and the subscription; rejects (closed) when either fails. */
  static async open(socket: tls.TLSSocket, options: MqttLinkOptions): Promise<MqttLink> {
    const client = new MqttClient(() => socket, {
      protocolVersion: 4,
      username: 'bblp',
      password: options.accessCode,
      clientId: options.clientId,
      clean: true,
      keepalive: KEEPALIVE_S,
      reconnectPeriod: 0,
      connectTimeout: options.timeoutMs,
      resubscribe: false,
      queueQoSZero: false,
    });
    const link = new MqttLink(client, options);
    try {
      await link.connected();
      const granted = await client.subscribeAsync(reportTopic(options.serial), { qos: 0 });
      if (granted.some((g) => g.qos === 128)) throw new Error(`the broker refused the subscription to ${reportTopic(options.serial)}`);
    } catch (err) {
      link.close();
      throw err;
    }
    client.on('message', (_topic, payload) => link.receive(payload));
    client.on('close', () => {
      if (link.closing) return;
      link.closing = true;
      options.onClose(link.lastError ? `connection to the printer lost: ${link.lastError.message}` : 'connection to the printer lost');
    });
    return link;
  }

  /** Publishes `{ [kind]: { sequence_id, command, ...params } }` on the request topic; returns the sequence id. */
  publish(kind: string, command: string, params: Json = {}): string {
    const sequenceId = String(++this.sequence);
    const message = { [kind]: { sequence_id: sequenceId, command, ...params } };
    this.client.publish(requestTopic(this.options.serial), JSON.stringify(message), { qos: 1 });
    return sequenceId;
  }

  close(): void {
    this.closing = true;
    this.client.end(true);
  }

  private connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the printer's broker did not accept the session within ${this.options.timeoutMs / 1000} s`)),
        this.options.timeoutMs,
      );
      const done = (err: Error | null): void => {
        clearTimeout(timer);
        this.client.off('connect', onConnect);
        this.client.off('error', onError);
        this.client.off('close', onClosed);
        if (err) reject(err);
        else resolve();
      };
      const onConnect = (): void => done(null);
      const onError = (err: Error & { code?: unknown }): void => {
        if (typeof err.code === 'number' && REFUSED_CREDENTIALS.has(err.code)) {
          done(
            new PermanentConnectError(
              `the printer refused the access code (MQTT CONNACK ${err.code}: ${err.message}); ` +
                "check the LAN access code on the printer's screen and change it here",
            ),
          );
        } else {
          done(err);
        }
      };
      const onClosed = (): void => done(new Error('the printer closed the connection before accepting the MQTT session'));
      this.client.on('connect', onConnect);
      this.client.on('error', onError);
      this.client.on('close', onClosed);
    });
  }

  private receive(payload: Buffer): void {
    let message: unknown;
    try {
      message = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (typeof message === 'object' && message !== null && !Array.isArray(message)) this.options.onMessage(message as Json);
  }
}
