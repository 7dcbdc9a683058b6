/**
 * The printer families the dashboard knows, keyed by `type`: one folder each beside this file,
 * entered through its `family.ts` (connection block, vendor, driver). Adding a kind of printer is
 * one folder and one line in this list; the registry's checks, the API's schemas and the
 * dashboard's drivers (driver-registry.ts) all follow from it.
 */
import { bambuLan } from './bambu-lan/family.js';
import { marlinSerial } from './marlin-serial/family.js';
import type { PrinterFamily } from './printer-family.js';

const families: readonly PrinterFamily[] = [marlinSerial, bambuLan];

const byType = new Map(families.map((family) => [family.type, family]));

export function printerFamilies(): readonly PrinterFamily[] {
  return families;
}

export function printerTypeNames(): string[] {
  return families.map((family) => family.type);
}

export function findPrinterFamily(type: string): PrinterFamily | undefined {
  return byType.get(type);
}
