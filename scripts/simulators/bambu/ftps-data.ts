/**
 * A passive-mode data connection of the FTPS server: a one-shot TLS listener on a fresh port that
 * takes the first connection from the control connection's peer. The listener shares the control
 * server's certificate and session-ticket keys, so a client that resumes its control session on
 * the data connection is recognised (`isSessionReused()`), which the printer's vsftpd requires.
 */
import type net from 'node:net';
import tls from 'node:tls';

/* vsftpd gives up on a passive connection after its data_connection_timeout (300 s); a test needs less. */
const ACCEPT_TIMEOUT_MS = 30_000;

export interface TlsMaterial {
  key: string;
  cert: string;
  ticketKeys: Buffer;
}

/** The printer's FTPS speaks TLS 1.2, where a client resumes a session from its control connection. */
export function tlsServerOptions(material: TlsMaterial): tls.TlsOptions {
  return { key: material.key, cert: material.cert, ticketKeys: material.ticketKeys, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' };
}

export class PassiveChannel {
  private readonly server: tls.Server;
  private readonly connection: Promise<tls.TLSSocket>;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    material: TlsMaterial,
    private readonly peerAddress: string | undefined,
  ) {
    this.server = tls.createServer(tlsServerOptions(material));
    this.connection = new Promise((resolve, reject) => {
      this.timer = setTimeout(() => this.fail(reject, new Error('no data connection arrived')), ACCEPT_TIMEOUT_MS);
      this.timer.unref();
      this.server.on('secureConnection', (socket) => {
        if (this.settled || socket.remoteAddress !== this.peerAddress) {
          socket.destroy();
          return;
        }
        this.settled = true;
        clearTimeout(this.timer);
        this.server.close();
        resolve(socket);
      });
      this.server.on('tlsClientError', (err, socket) => {
        socket.destroy();
        if (!this.settled) this.fail(reject, new Error(`TLS handshake on the data connection failed: ${err.message}`));
      });
    });
    // A data connection nobody asks for must not be an unhandled rejection.
    this.connection.catch(() => {});
  }

  static async open(material: TlsMaterial, host: string, peerAddress: string | undefined): Promise<PassiveChannel> {
    const channel = new PassiveChannel(material, peerAddress);
    await new Promise<void>((resolve, reject) => {
      channel.server.once('error', reject);
      channel.server.listen(0, host, () => resolve());
    });
    return channel;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  accept(): Promise<tls.TLSSocket> {
    return this.connection;
  }

  close(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.server.close();
    void this.connection.then(
      (socket) => socket.destroy(),
      () => {},
    );
  }

  private fail(reject: (err: Error) => void, err: Error): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.server.close();
    reject(err);
  }
}
