/**
 * How the dashboard trusts a Bambu printer's TLS services (MQTT on 8883, FTPS on 990). The
 * printer's certificate names its serial number (CN, and SAN on newer ones), so the serial is the
 * TLS server name (SNI) and the name checked, never the IP address.
 *
 * - With a configured `ca`: the chain must verify against it and the certificate must name the
 *   serial; otherwise the connection is refused, permanently (retrying cannot fix settings).
 * - Without one (trust on first use): there is no CA to verify the chain against, so Node's
 *   chain check is switched off for this one socket, explicitly, and identity is established
 *   instead by the certificate itself: it must name the serial, and its SHA-256 fingerprint must
 *   equal the one pinned the first time this printer was reached (pin-store.ts). A different one is
 *   refused, permanently, saying what to do. The access code is only sent once this check passed:
 *   the socket is handed to MQTT or FTP after it.
 * - A data connection that resumes the control connection's TLS session (FTPS) is the same
 *   authenticated session and needs no second check.
 */
import tls from 'node:tls';
import { PermanentConnectError } from '../../driver.js';
import type { CertificatePins, TlsService } from './pin-store.js';

export interface TrustedSocketOptions {
  host: string;
  port: number;
  serial: string;
  printerId: string;
  /** PEM; null for trust on first use. */
  ca: string | null;
  pins: CertificatePins;
  service: TlsService;
  timeoutMs: number;
  /** A TLS session to resume (FTPS data connections). */
  session?: Buffer;
}

/* Node's codes for a certificate that does not verify (as opposed to a network failure). */
const VERIFY_FAILURE = /CERT|SELF_SIGNED|UNABLE_TO|SIGNATURE|ISSUER|ALTNAME|PATH_LENGTH|CHAIN/;

function describe(options: TrustedSocketOptions): string {
  return `${options.service.toUpperCase()} at ${options.host}:${options.port}`;
}

function handshake(options: TrustedSocketOptions): Promise<tls.TLSSocket> {
  const trust: tls.ConnectionOptions = options.ca === null ? { rejectUnauthorized: false } : { ca: options.ca, rejectUnauthorized: true };
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: options.host,
      port: options.port,
      servername: options.serial,
      minVersion: 'TLSv1.2',
      ...(options.session ? { session: options.session } : {}),
      ...trust,
    });
    const timer = setTimeout(
      () => socket.destroy(new Error(`no TLS handshake with ${describe(options)} within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
    const failed = (err: Error & { code?: string }): void => {
      clearTimeout(timer);
      socket.destroy();
      if (options.ca !== null && VERIFY_FAILURE.test(err.code ?? '')) {
        reject(
          new PermanentConnectError(
            `the printer's certificate (${describe(options)}) does not verify against the configured CA ` +
              `for serial ${options.serial}: ${err.message}; correct the CA, or remove it to pin the certificate on first use`,
          ),
        );
      } else {
        reject(err);
      }
    };
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      socket.off('error', failed);
      // Whoever takes the socket listens for its errors; until then (and after) they must not crash us.
      socket.on('error', () => undefined);
      resolve(socket);
    });
    socket.once('error', failed);
  });
}

function subjectName(cert: tls.PeerCertificate): string {
  const cn = cert.subject?.CN;
  return Array.isArray(cn) ? cn.join(', ') : (cn ?? '');
}

/** A TLS socket to the printer whose certificate was checked as described above. */
export async function openTrustedSocket(options: TrustedSocketOptions): Promise<tls.TLSSocket> {
  const socket = await handshake(options);
  if (options.ca !== null || (options.session && socket.isSessionReused())) return socket;
  try {
    await checkPinned(socket, options);
  } catch (err) {
    socket.destroy();
    throw err;
  }
  return socket;
}

async function checkPinned(socket: tls.TLSSocket, options: TrustedSocketOptions): Promise<void> {
  const cert = socket.getPeerCertificate();
  if (!cert?.fingerprint256) throw new PermanentConnectError(`${describe(options)} showed no certificate`);
  const wrongName = tls.checkServerIdentity(options.serial, cert);
  if (wrongName) {
    throw new PermanentConnectError(
      `${describe(options)} showed a certificate for "${subjectName(cert)}", not for printer ${options.serial}: check the host and the serial number`,
    );
  }
  const check = await options.pins.check(options.printerId, options.serial, options.service, {
    sha256: cert.fingerprint256,
    subject: subjectName(cert),
  });
  if (check.outcome !== 'mismatch') return;
  throw new PermanentConnectError(
    `the TLS certificate of printer ${options.serial} (${describe(options)}) changed: SHA-256 ${cert.fingerprint256} instead of ` +
      `${check.pinned.sha256}, pinned on first use at ${check.pinned.pinned_at}. Something else may be answering at this address. ` +
      "If the printer's certificate really changed (new firmware, replaced board), configure its CA, " +
      'or delete and re-add the printer to pin the new one',
  );
}
