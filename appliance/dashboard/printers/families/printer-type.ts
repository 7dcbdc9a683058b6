/**
 * What the registry knows about one kind of printer connection: how its connection block is
 * validated, shown and kept unique, and who makes such printers. Every printer family
 * (printer-family.ts) is one; its schemas reach the OpenAPI description through the `oneOf` of
 * the printer routes.
 */
import type { JsonSchema } from '../../http/route.js';
import type { ValidationIssue } from '../../../common/json-schema.js';

/** A stored connection block: the fields of its type's schema. */
export type PrinterConnection = Record<string, unknown>;

/** Stands for a stored secret in responses; sent back on PUT it keeps the stored value. */
export const SECRET_MASK = '***';

export interface PrinterTypeDefinition {
  type: string;
  /** Human name, for documentation. */
  label: string;
  /** Maker of every printer of this type (Bambu Lab); null when the record or firmware says. */
  fixedVendor: string | null;
  /** A complete connection block, as POST takes it; defaults are applied before checking. */
  connectionSchema: JsonSchema;
  defaults: PrinterConnection;
  /** Fields never returned in clear: shown as SECRET_MASK plus `<field>_set: true`. */
  secrets: readonly string[];
  /**
   * What the schema cannot express (an address that parses, a certificate that loads); `path`
   * is where the block sits in the request, for the issues.
   */
  check(connection: PrinterConnection, path: string): ValidationIssue[];
  /** The canonical stored form of a valid block (e.g. an upper-cased serial number). */
  normalise(connection: PrinterConnection): PrinterConnection;
  /** Fields whose value must differ between printers: two records cannot share a device. */
  uniqueFields: readonly string[];
}
