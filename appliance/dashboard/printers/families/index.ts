/**
 * The table of printer types the registry accepts, keyed by `type`. Adding a kind of printer is
 * one definition here; its driver registers separately (driver-registry.ts), so a type can be
 * configured before its driver exists and is then shown offline, saying so.
 */
import { bambuLan } from './bambu-lan/family.js';
import { marlinSerial } from './marlin-serial/family.js';
import type { PrinterTypeDefinition } from './printer-type.js';

const definitions: readonly PrinterTypeDefinition[] = [marlinSerial, bambuLan];

const byType = new Map(definitions.map((definition) => [definition.type, definition]));

export function printerTypes(): readonly PrinterTypeDefinition[] {
  return definitions;
}

export function printerTypeNames(): string[] {
  return definitions.map((definition) => definition.type);
}

export function findPrinterType(type: string): PrinterTypeDefinition | undefined {
  return byType.get(type);
}
