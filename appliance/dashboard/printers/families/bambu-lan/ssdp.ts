/**
 * Bambu Lab printers' SSDP announcements, as Bambu Studio and Home Assistant's ha-bambulab
 * listen for them: every few seconds a printer in LAN mode sends an SSDP `NOTIFY * HTTP/1.1` to
 * 255.255.255.255:2021 (also to 239.255.255.250:1990; Bambu Studio listens on 2021 only) with
 * `Location:` its IP address, `USN:` its serial, `NT: urn:bambulab-com:device:3dprinter:1` and
 * vendor headers: `DevModel.bambu.com` (a model code), `DevName.bambu.com` (the name set in the
 * app), `DevVersion.bambu.com`, `DevConnect.bambu.com` (lan/cloud), `DevBind.bambu.com`,
 * `DevSignal.bambu.com` (Wi-Fi dBm). The printers answer no M-SEARCH, so listening is the way.
 * This module reads one datagram; pure.
 */

export const BAMBU_SSDP_PORT = 2021;
export const BAMBU_SEARCH_TARGET = 'urn:bambulab-com:device:3dprinter:1';

/** Model codes printers send, with the names Bambu Studio shows; an unknown code is kept as is. */
export const BAMBU_MODEL_CODES: Readonly<Record<string, string>> = {
  '3DPrinter-X1-Carbon': 'X1 Carbon',
  'BL-P001': 'X1 Carbon',
  '3DPrinter-X1': 'X1',
  'BL-P002': 'X1',
  C13: 'X1E',
  C11: 'P1P',
  C12: 'P1S',
  N1: 'A1 mini',
  N2S: 'A1',
  O1D: 'H2D',
};

export interface BambuAnnouncement {
  serial: string;
  /** The printer's IP address (Location). */
  host: string;
  /** The model code as sent, e.g. `C12`. */
  modelCode: string | null;
  /** The model's name, e.g. `P1S` (the code when unknown). */
  model: string | null;
  name: string | null;
  firmware: string | null;
  /** `lan` or `cloud`. */
  connectMode: string | null;
  /** Wi-Fi signal in dBm. */
  signalDbm: number | null;
  /** Cache-Control max-age, seconds. */
  maxAgeS: number | null;
}

const SERIAL = /^[0-9A-Z]{15}$/;

function headers(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of text.split(/\r?\n/).slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) found.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return found;
}

/** The announcement in a datagram, or null when it is not a Bambu printer's NOTIFY. */
export function parseBambuAnnouncement(datagram: Buffer | string): BambuAnnouncement | null {
  const text = typeof datagram === 'string' ? datagram : datagram.toString('utf8');
  if (!/^NOTIFY \* HTTP\/1\.1\r?$/m.test(text.split('\n')[0] ?? '')) return null;
  const h = headers(text);
  const serial = (h.get('usn') ?? '').toUpperCase();
  const host = h.get('location') ?? '';
  const modelCode = h.get('devmodel.bambu.com') || null;
  if (!SERIAL.test(serial) || host === '' || (h.get('nt') !== BAMBU_SEARCH_TARGET && modelCode === null)) return null;
  const signal = Number(h.get('devsignal.bambu.com'));
  const maxAge = /max-age\s*=\s*(\d+)/i.exec(h.get('cache-control') ?? '');
  return {
    serial,
    host,
    modelCode,
    model: modelCode === null ? null : (BAMBU_MODEL_CODES[modelCode] ?? modelCode),
    name: h.get('devname.bambu.com') || null,
    firmware: h.get('devversion.bambu.com') || null,
    connectMode: h.get('devconnect.bambu.com') || null,
    signalDbm: h.has('devsignal.bambu.com') && Number.isFinite(signal) ? signal : null,
    maxAgeS: maxAge ? Number(maxAge[1]) : null,
  };
}
