/**
 * The printer's implicit-FTPS server (port 990 on a real printer): TLS from the first byte with
 * the printer's certificate, then the vsftpd dialogue of ftps-session.ts. Files live in the SD
 * card folder.
 */
import { randomBytes } from 'node:crypto';
import type net from 'node:net';
import tls from 'node:tls';
import type { Logger } from '../../../appliance/common/logger.js';
import { tlsServerOptions, type TlsMaterial } from './ftps-data.js';
import { FtpsSession } from './ftps-session.js';
import type { SdCard } from './sd-card.js';

export interface FtpsServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  key: string;
  cert: string;
  sd: SdCard;
  accessCode: () => string;
  log: Logger;
  onStored?: (virtualPath: string) => void;
}

export class FtpsServer {
  private readonly server: tls.Server;
  private readonly sockets = new Set<tls.TLSSocket>();
  private readonly material: TlsMaterial;

  constructor(private readonly options: FtpsServerOptions) {
    // One set of ticket keys for the control and every data listener: what makes resumption work.
    this.material = { key: options.key, cert: options.cert, ticketKeys: randomBytes(48) };
    this.server = tls.createServer(tlsServerOptions(this.material), (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      new FtpsSession(socket, {
        sd: options.sd,
        tls: this.material,
        accessCode: options.accessCode,
        log: options.log,
        onStored: options.onStored,
      });
    });
    this.server.on('tlsClientError', (err, socket) => {
      options.log.debug('FTPS handshake failed', { error: err.message });
      socket.destroy();
    });
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve(this.port);
      });
    });
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
