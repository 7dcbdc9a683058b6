/**
 * What M115 says about the firmware: the `FIRMWARE_NAME:` line (name, machine type, extruder
 * count, UUID — values may hold spaces, so the line is cut at the next `KEY:`) and one
 * `Cap:<NAME>:<0|1>` line per capability. The driver decides from the capabilities whether to
 * ask for auto-reports or poll, and which actions it offers.
 */
import type { PrinterIdentity } from '../../printer.js';

export interface FirmwareInfo {
  /** `Marlin 2.1.2.1 (Jul 20 2023 11:02:55)`. */
  name: string | null;
  machineType: string | null;
  /** 1 when the firmware does not say. */
  extruders: number;
  uuid: string | null;
  capabilities: Record<string, boolean>;
}

const KEY = /(?:^|\s)([A-Z][A-Z0-9_]*):/g;
const CAP = /^Cap:([A-Z0-9_]+):([01])\s*$/;

/** The `KEY:value` pairs of a `FIRMWARE_NAME:` line. */
export function parseFirmwareLine(line: string): Record<string, string> {
  const keys = [...line.matchAll(KEY)];
  const fields: Record<string, string> = {};
  keys.forEach((m, k) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = k + 1 < keys.length ? (keys[k + 1].index ?? line.length) : line.length;
    fields[m[1]] = line.slice(start, end).trim();
  });
  return fields;
}

export function isFirmwareLine(line: string): boolean {
  return line.startsWith('FIRMWARE_NAME:');
}

/** Reads the M115 answer: the firmware line and the `Cap:` lines, in any order among others. */
export function parseFirmwareInfo(lines: readonly string[]): FirmwareInfo {
  const firmware = lines.find(isFirmwareLine);
  const fields = firmware ? parseFirmwareLine(firmware) : {};
  const capabilities: Record<string, boolean> = {};
  for (const line of lines) {
    const cap = CAP.exec(line.trim());
    if (cap) capabilities[cap[1]] = cap[2] === '1';
  }
  const extruders = Number(fields.EXTRUDER_COUNT);
  return {
    name: fields.FIRMWARE_NAME || null,
    machineType: fields.MACHINE_TYPE || null,
    extruders: Number.isInteger(extruders) && extruders >= 1 ? extruders : 1,
    uuid: fields.UUID || null,
    capabilities,
  };
}

/** Marlin does not name the maker; the machine type is what the board was configured as. */
export function identityOf(info: FirmwareInfo): PrinterIdentity {
  return { vendor: null, model: info.machineType, firmware: info.name };
}
