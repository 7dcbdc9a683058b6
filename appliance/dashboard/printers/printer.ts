/**
 * A configured printer as the registry stores it, and the form in which it leaves the server:
 * secrets masked, the vendor resolved, the live status attached.
 */
import type { PrinterConnection, PrinterTypeDefinition } from './families/printer-type.js';
import { SECRET_MASK } from './families/printer-type.js';
import type { PrinterState, PrinterStatus } from './status.js';

export interface PrinterRecord {
  /** 16 hex digits, generated. */
  id: string;
  /** Unique among printers, ignoring case; 1–64 characters. */
  name: string;
  /** A key of the printer-type table: `marlin-serial`, `bambu-lan`. */
  type: string;
  /** The maker as configured; ignored where the type fixes it. */
  vendor: string | null;
  model: string | null;
  /** Slicer printer profile to slice for this printer. */
  printer_profile: string | null;
  enabled: boolean;
  connection: PrinterConnection;
  created_at: string;
  updated_at: string;
}

/** What a printer says about itself once a driver has talked to it (M115, get_version). */
export interface PrinterIdentity {
  vendor: string | null;
  model: string | null;
  firmware: string | null;
}

export interface PrinterView extends Omit<PrinterRecord, 'vendor'> {
  /** The type's fixed maker, else the configured one, else what the firmware reported. */
  vendor: string | null;
  identity: PrinterIdentity | null;
  online: boolean;
  state: PrinterState;
  status: PrinterStatus;
}

/** The connection block with every secret replaced by the mask and flagged as set. */
export function maskSecrets(definition: PrinterTypeDefinition, connection: PrinterConnection): PrinterConnection {
  const shown: PrinterConnection = { ...connection };
  for (const secret of definition.secrets) {
    const set = typeof connection[secret] === 'string' && connection[secret] !== '';
    if (set) shown[secret] = SECRET_MASK;
    else delete shown[secret];
    shown[`${secret}_set`] = set;
  }
  return shown;
}

export function resolveVendor(definition: PrinterTypeDefinition | undefined, record: PrinterRecord, identity: PrinterIdentity | null): string | null {
  return definition?.fixedVendor ?? record.vendor ?? identity?.vendor ?? null;
}

export function printerView(
  definition: PrinterTypeDefinition | undefined,
  record: PrinterRecord,
  status: PrinterStatus,
  identity: PrinterIdentity | null,
): PrinterView {
  return {
    ...record,
    vendor: resolveVendor(definition, record, identity),
    connection: definition ? maskSecrets(definition, record.connection) : {},
    identity,
    online: status.online,
    state: status.state,
    status,
  };
}
