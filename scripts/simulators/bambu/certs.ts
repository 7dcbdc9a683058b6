/**
 * The simulator's PKI, made with the `openssl` command line (Debian's openssl package): one CA
 * standing in for Bambu's "BBL CA", and per printer a server certificate whose CN and DNS SAN are
 * the printer's serial number, as on the real printers. A client verifies the printer by passing
 * the CA and `servername: <serial>` (SNI), never the IP address.
 *
 * Keys are EC P-256 (instant to make, so a bench of 50 printers starts quickly; the real printers
 * use RSA, which changes nothing for a client). Files already in the folder are reused, so a
 * simulator started again on the same folder keeps the CA a dashboard was configured with.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const VALID_DAYS = '3650';
const CA_SUBJECT = '/C=CN/O=Printyard Virtual Printers/CN=Virtual BBL CA';
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export interface CertificateAuthority {
  certPath: string;
  keyPath: string;
  pem: string;
}

export interface PrinterCertificate {
  certPath: string;
  keyPath: string;
  certPem: string;
  keyPem: string;
}

async function openssl(args: readonly string[]): Promise<void> {
  try {
    await run('openssl', args);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('the openssl command is missing (Debian package "openssl")');
    throw new Error(`openssl ${args[0]} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}

export async function createCertificateAuthority(dir: string): Promise<CertificateAuthority> {
  const certPath = path.join(dir, 'ca.pem');
  const keyPath = path.join(dir, 'ca.key');
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    await openssl([
      'req',
      '-x509',
      ...EC_KEY,
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      VALID_DAYS,
      '-subj',
      CA_SUBJECT,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
  }
  return { certPath, keyPath, pem: readFileSync(certPath, 'utf8') };
}

/** The printer's certificate, CN and SAN = serial, signed by the CA. */
export async function issuePrinterCertificate(ca: CertificateAuthority, serial: string, dir: string): Promise<PrinterCertificate> {
  const certPath = path.join(dir, `${serial}.pem`);
  const keyPath = path.join(dir, `${serial}.key`);
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    await openssl([
      'req',
      '-x509',
      ...EC_KEY,
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      VALID_DAYS,
      '-subj',
      `/CN=${serial}`,
      '-CA',
      ca.certPath,
      '-CAkey',
      ca.keyPath,
      '-addext',
      `subjectAltName=DNS:${serial}`,
      '-addext',
      'basicConstraints=critical,CA:FALSE',
      '-addext',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      '-addext',
      'extendedKeyUsage=serverAuth',
    ]);
  }
  return { certPath, keyPath, certPem: readFileSync(certPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
}
