/**
 * The connection settings of a `bambu-lan` printer record (family.ts), with the ports defaulted.
 * The registry validated the record; a block that still lacks a field (a file edited by hand)
 * makes the factory throw, which the manager shows as the printer's error.
 */
import type { PrinterRecord } from '../../printer.js';

export const DEFAULT_MQTT_PORT = 8883;
export const DEFAULT_FTPS_PORT = 990;

export interface BambuSettings {
  printerId: string;
  host: string;
  serial: string;
  accessCode: string;
  /** PEM; null means trust on first use (tls-trust.ts). */
  ca: string | null;
  mqttPort: number;
  ftpsPort: number;
}

function text(record: PrinterRecord, field: string): string {
  const value = record.connection[field];
  if (typeof value !== 'string' || value === '') throw new Error(`connection.${field} is missing`);
  return value;
}

function port(record: PrinterRecord, field: string, fallback: number): number {
  const value = record.connection[field];
  if (value === undefined || value === null) return fallback;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 65535) throw new Error(`connection.${field} is not a TCP port`);
  return value as number;
}

export function bambuSettings(record: PrinterRecord): BambuSettings {
  const ca = record.connection.ca;
  return {
    printerId: record.id,
    host: text(record, 'host'),
    serial: text(record, 'serial'),
    accessCode: text(record, 'access_code'),
    ca: typeof ca === 'string' && ca.trim() !== '' ? ca : null,
    mqttPort: port(record, 'mqtt_port', DEFAULT_MQTT_PORT),
    ftpsPort: port(record, 'ftps_port', DEFAULT_FTPS_PORT),
  };
}
