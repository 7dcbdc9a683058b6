/**
 * What the dashboard announces over mDNS, built from the settings (pure, so tested alone):
 * - `_http._tcp`, instance "Printyard <box name>", TXT `path=/` (the dns-sd.org key browsers
 *   use), `version` (product), `api` (the dashboard API's major version), `box_id`;
 * - `_pyard-slicer._tcp` (a service name has at most 15 characters, RFC 6335, so not
 *   `printyard-slicer`) for the slicer service this box runs (the slicer integration is on
 *   and its URL is on this machine), same instance name, TXT `path=/`, `version`, `box_id`,
 *   `box` (the box's name). Other boxes browse this type (presence.ts). The port is the one
 *   of the URL; the service must listen on the LAN (printyard-slicer --rest-bind 0.0.0.0) to be
 *   reachable from another box, and other boxes still need its token.
 * No credentials ever go into TXT records (they are readable by anyone on the LAN).
 * The SRV target is `printyard-<first 8 of the box id>.local`, not the OS host name: boxes made
 * from one image share a host name, and bonjour-service does not probe host names.
 */
import { isLoopback } from '../../common/http-server.js';
import { packageVersion } from '../../common/version.js';
import type { AnnouncementSet, AnnouncedService } from '../../hardware/mdns/announcer.js';
import type { DashboardSettings } from '../settings/settings.js';

export const DASHBOARD_SERVICE_TYPE = 'http';
export const SLICER_SERVICE_TYPE = 'pyard-slicer';
/** Major version of the dashboard's REST API (/api/...); raised on an incompatible change. */
export const DASHBOARD_API_VERSION = 1;
/** A DNS label holds 63 bytes; room is left for a rename suffix ` (20)`. */
const MAX_NAME_BYTES = 57;
const PREFIX = 'Printyard';

function truncateBytes(text: string, max: number): string {
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(out + ch) > max) break;
    out += ch;
  }
  return out.trimEnd();
}

/** "Printyard <box name>", or the box name alone when it already starts with Printyard. */
export function instanceName(boxName: string): string {
  const name = boxName.trim();
  const full = name.toLowerCase().startsWith(PREFIX.toLowerCase()) ? name : `${PREFIX} ${name}`;
  // Dots separate DNS labels; bonjour-service would turn them into dashes anyway.
  return truncateBytes(full.replaceAll('.', '-'), MAX_NAME_BYTES);
}

export function hostFor(boxId: string): string {
  return `printyard-${boxId.slice(0, 8)}.local`;
}

/** The slicer service's port when the integration points at this machine, else null. */
export function localSlicerPort(settings: DashboardSettings): number | null {
  const slicer = settings.slicer_service;
  if (!slicer.enabled) return null;
  let url: URL;
  try {
    url = new URL(slicer.url);
  } catch {
    return null;
  }
  if (!isLoopback(url.hostname)) return null;
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

export interface AnnouncementInput {
  settings: DashboardSettings;
  boxId: string;
  /** The port the dashboard listens on. */
  port: number;
}

export function buildAnnouncement({ settings, boxId, port }: AnnouncementInput): AnnouncementSet {
  const host = hostFor(boxId);
  const version = packageVersion();
  const services: AnnouncedService[] = [
    { type: DASHBOARD_SERVICE_TYPE, port, host, txt: { path: '/', version, api: String(DASHBOARD_API_VERSION), box_id: boxId } },
  ];
  const slicerPort = localSlicerPort(settings);
  if (slicerPort !== null) {
    services.push({ type: SLICER_SERVICE_TYPE, port: slicerPort, host, txt: { path: '/', version, box_id: boxId, box: settings.box.name } });
  }
  return { name: instanceName(settings.box.name), services };
}
