/**
 * Opens what a print command names on the SD card: a `.3mf` project (the plate's G-code is the
 * `param` part, `Metadata/plate_<n>.gcode`) or a plain `.gcode` file, and plans it.
 */
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { planFromGcode, type PrintPlan } from './gcode-plan.js';
import type { SdCard } from './sd-card.js';

const PLATE_PART = /^Metadata\/plate_\d+\.gcode$/;

export class PrintFileError extends Error {}

export async function loadPrintFile(sd: SdCard, virtualPath: string, plate: string): Promise<PrintPlan> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(sd.realPath(virtualPath));
  } catch {
    throw new PrintFileError(`${virtualPath} is not on the SD card`);
  }
  let gcode = bytes;
  if (virtualPath.toLowerCase().endsWith('.3mf')) {
    if (!PLATE_PART.test(plate))
      throw new PrintFileError(`param must name a plate's G-code (Metadata/plate_<n>.gcode), not ${JSON.stringify(plate)}`);
    let parts: Record<string, Uint8Array>;
    try {
      parts = unzipSync(bytes, { filter: (f) => f.name === plate });
    } catch (err) {
      throw new PrintFileError(`${virtualPath} is not a readable 3MF: ${(err as Error).message}`);
    }
    if (!parts[plate]) throw new PrintFileError(`${virtualPath} has no ${plate}`);
    gcode = parts[plate];
  }
  try {
    return planFromGcode(gcode);
  } catch (err) {
    throw new PrintFileError(`${virtualPath}: ${(err as Error).message}`);
  }
}
