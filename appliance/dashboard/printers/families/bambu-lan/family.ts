/**
 * `bambu-lan`: a Bambu Lab printer reached on the local network (MQTT over TLS on 8883, FTPS on
 * 990), authenticated with its LAN access code. The printer's certificate has the serial number
 * as its CN, so the serial doubles as the TLS server name; `ca` lets a user pin the CA of a model
 * whose CA is newer than the ones we ship. The ports are optional: a printer behind NAT, or a
 * simulated one, may answer on others. The driver is bambu-driver.ts.
 */
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { ValidationIssue } from '../../../../common/json-schema.js';
import type { PrinterFamily } from '../printer-family.js';
import type { PrinterConnection } from '../printer-type.js';
import { createBambuLanDriver } from './bambu-driver.js';
import { DEFAULT_FTPS_PORT, DEFAULT_MQTT_PORT } from './bambu-settings.js';

export interface BambuLanConnection {
  /** IPv4 or IPv6 address, or host name. */
  host: string;
  /** 15 characters, upper-case letters and digits, e.g. `01P00A123456789`. */
  serial: string;
  /** The 8-character LAN access code shown on the printer's screen. */
  access_code: string;
  /** PEM certificate(s) of the CA that signed the printer's certificate. */
  ca?: string;
  /** MQTT over TLS; 8883 when absent. */
  mqtt_port?: number;
  /** Implicit FTPS; 990 when absent. */
  ftps_port?: number;
}

const SERIAL_PATTERN = '^[0-9A-Za-z]{15}$';
const ACCESS_CODE_PATTERN = '^[0-9A-Za-z]{8}$';
const HOST_LABEL = /^(?!-)[0-9A-Za-z-]{1,63}(?<!-)$/;
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;
const MAX_CA_LENGTH = 64 * 1024;

export function isHostName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split('.');
  // An all-numeric dotted name is a malformed IPv4 address, not a host name.
  if (labels.every((label) => /^\d+$/.test(label))) return false;
  return labels.every((label) => HOST_LABEL.test(label));
}

function checkHost(host: string, where: string): ValidationIssue[] {
  if (isIP(host) !== 0 || isHostName(host)) return [];
  return [{ path: where, message: 'must be an IPv4 or IPv6 address or a host name (no scheme, port or brackets)' }];
}

/** Every PEM block must be a certificate that node:crypto can load; at least one is required. */
function checkCa(ca: string, where: string): ValidationIssue[] {
  const blocks = [...ca.matchAll(PEM_BLOCK)];
  if (blocks.length === 0) return [{ path: where, message: 'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)' }];
  const outside = ca.replace(PEM_BLOCK, '').trim();
  if (outside !== '') return [{ path: where, message: 'must hold only PEM certificates' }];
  for (const [index, block] of blocks.entries()) {
    if (block[1] !== 'CERTIFICATE') return [{ path: where, message: `block ${index + 1} is a ${block[1]}, not a CERTIFICATE` }];
    try {
      new X509Certificate(block[0]);
    } catch (err) {
      return [{ path: where, message: `certificate ${index + 1} does not load: ${(err as Error).message}` }];
    }
  }
  return [];
}

export const bambuLan: PrinterFamily = {
  type: 'bambu-lan',
  label: 'Bambu Lab over LAN (MQTT/TLS + FTPS)',
  fixedVendor: 'Bambu Lab',
  connectionSchema: {
    type: 'object',
    required: ['host', 'serial', 'access_code'],
    additionalProperties: false,
    properties: {
      host: { type: 'string', minLength: 1, maxLength: 253, description: 'IPv4 or IPv6 address, or host name, of the printer.' },
      serial: { type: 'string', pattern: SERIAL_PATTERN, description: 'The 15-character serial number (stored upper-case), e.g. `01P00A123456789`.' },
      access_code: {
        type: 'string',
        pattern: ACCESS_CODE_PATTERN,
        format: 'password',
        description: 'The 8-character LAN access code from the printer screen. Never returned: responses show `***` and `access_code_set`.',
      },
      ca: { type: 'string', maxLength: MAX_CA_LENGTH, description: 'PEM certificate(s) of the CA that signs the printer certificate.' },
      mqtt_port: {
        type: 'integer',
        minimum: 1,
        maximum: 65535,
        description: `TCP port of the printer's MQTT over TLS; ${DEFAULT_MQTT_PORT} when omitted.`,
      },
      ftps_port: {
        type: 'integer',
        minimum: 1,
        maximum: 65535,
        description: `TCP port of the printer's implicit FTPS; ${DEFAULT_FTPS_PORT} when omitted.`,
      },
    },
  },
  defaults: {},
  secrets: ['access_code'],
  check: (connection, where) => [
    ...checkHost(String(connection.host), `${where}/host`),
    ...(connection.ca === undefined ? [] : checkCa(String(connection.ca), `${where}/ca`)),
  ],
  normalise: (connection: PrinterConnection) => ({
    host: String(connection.host).toLowerCase(),
    serial: String(connection.serial).toUpperCase(),
    access_code: connection.access_code,
    ...(connection.ca === undefined ? {} : { ca: `${String(connection.ca).trim()}\n` }),
    ...(connection.mqtt_port === undefined ? {} : { mqtt_port: connection.mqtt_port }),
    ...(connection.ftps_port === undefined ? {} : { ftps_port: connection.ftps_port }),
  }),
  uniqueFields: ['serial'],
  createDriver: createBambuLanDriver,
};
