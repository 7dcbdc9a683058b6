/**
 * `marlin-serial`: a Marlin (or Marlin-compatible) printer on a USB serial device. The vendor is
 * whatever the record says, or what the firmware reports once the driver has talked to it. The
 * driver is marlin-driver.ts.
 */
import path from 'node:path';
import type { ValidationIssue } from '../../../../common/json-schema.js';
import type { PrinterFamily } from '../printer-family.js';
import type { PrinterConnection } from '../printer-type.js';
import { createMarlinSerialDriver } from './marlin-driver.js';
import { BAUD_RATES, DEFAULT_BAUD } from './marlin-settings.js';

export interface MarlinSerialConnection {
  /** Absolute path of the serial device, preferably its stable `/dev/serial/by-id/…` link. */
  port: string;
  baud: number;
}

function checkPort(port: string, where: string): ValidationIssue[] {
  if (!path.posix.isAbsolute(port)) return [{ path: where, message: 'must be an absolute device path, e.g. /dev/ttyUSB0' }];
  // A normalised path names the device one way, so the uniqueness check cannot be side-stepped.
  if (path.posix.normalize(port) !== port || (port.length > 1 && port.endsWith('/'))) {
    const normalised = path.posix.normalize(port).replace(/\/$/, '');
    return [
      {
        path: where,
        message: `must be a normalised path (no "." or ".." parts, no repeated or trailing "/"), e.g. ${normalised}`,
      },
    ];
  }
  return [];
}

export const marlinSerial: PrinterFamily = {
  type: 'marlin-serial',
  label: 'Marlin over USB serial',
  fixedVendor: null,
  connectionSchema: {
    type: 'object',
    required: ['port'],
    additionalProperties: false,
    properties: {
      port: {
        type: 'string',
        minLength: 1,
        maxLength: 4096,
        pattern: '^/[^\\u0000-\\u001f\\u007f]*$',
        description: 'Absolute path of the serial device, e.g. `/dev/ttyUSB0` or `/dev/serial/by-id/usb-…`.',
      },
      baud: { type: 'integer', enum: [...BAUD_RATES], default: DEFAULT_BAUD, description: `Serial speed; ${DEFAULT_BAUD} when omitted.` },
    },
  },
  defaults: { baud: DEFAULT_BAUD },
  secrets: [],
  check: (connection, where) => checkPort(String(connection.port), `${where}/port`),
  normalise: (connection: PrinterConnection) => ({ port: connection.port, baud: connection.baud }),
  uniqueFields: ['port'],
  createDriver: createMarlinSerialDriver,
};
