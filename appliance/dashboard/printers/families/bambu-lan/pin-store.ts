/**
 * Certificates pinned on first use (TOFU), for Bambu printers configured without a `ca`: the
 * SHA-256 fingerprint of the first certificate a printer's MQTT or FTPS service showed is kept in
 * `<data dir>/bambu-tls-pins.json`, and later connections must show the same one.
 *
 * Pins are kept per printer record and service, together with the serial they were taken for:
 * a record whose serial changed names another device and pins afresh; deleting a printer and
 * adding it again, or configuring its `ca`, is how a user trusts a new certificate. Changes are
 * serialised per file within the process, so printers pinning at the same moment do not lose
 * each other's pins.
 */
import { JsonStores } from '../../../../common/json-store.js';
import type { Logger } from '../../../../common/logger.js';

export type TlsService = 'mqtt' | 'ftps';

export interface CertificatePin {
  /** Colon-separated hex, as node:crypto's `fingerprint256`. */
  sha256: string;
  subject: string;
  pinned_at: string;
}

interface PrinterPins {
  serial: string;
  mqtt?: CertificatePin;
  ftps?: CertificatePin;
}

interface PinFile {
  printers: Record<string, PrinterPins>;
}

export type PinCheck = { outcome: 'pinned' | 'matched' } | { outcome: 'mismatch'; pinned: CertificatePin };

const STORE_NAME = 'bambu-tls-pins';
const queues = new Map<string, Promise<unknown>>();

function checkShape(data: unknown): string | null {
  const printers = (data as PinFile | null)?.printers;
  return typeof printers === 'object' && printers !== null && !Array.isArray(printers) ? null : 'expected { "printers": { … } }';
}

export class CertificatePins {
  constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
  ) {}

  /** Compares the certificate with the pin of this printer and service, pinning it when there is none. */
  check(printerId: string, serial: string, service: TlsService, certificate: { sha256: string; subject: string }): Promise<PinCheck> {
    return this.serialised(async () => {
      const store = await new JsonStores(this.dataDir, this.log).open<PinFile>(STORE_NAME, { printers: {} }, checkShape);
      const known = store.data.printers[printerId];
      const entry: PrinterPins = known?.serial === serial ? known : { serial };
      const pinned = entry[service];
      if (pinned) return pinned.sha256 === certificate.sha256 ? { outcome: 'matched' } : { outcome: 'mismatch', pinned };
      entry[service] = { sha256: certificate.sha256, subject: certificate.subject, pinned_at: new Date().toISOString() };
      store.data.printers[printerId] = entry;
      await store.write();
      return { outcome: 'pinned' };
    });
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const previous = queues.get(this.dataDir) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(this.dataDir, settled);
    void settled.then(() => {
      if (queues.get(this.dataDir) === settled) queues.delete(this.dataDir);
    });
    return next;
  }
}
