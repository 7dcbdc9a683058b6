/**
 * The estimator's upload: the request body (raw G-code or a `.gcode.3mf` package) streamed to a
 * temporary file, counted while it arrives, so a 50 MB upload never sits in memory and one over the
 * limit is refused at its first byte past it (or before reading, from its Content-Length). A
 * package's G-code (`Metadata/plate_<n>.gcode`, the lowest plate when there are several) is then
 * inflated next to it: the estimator and the header reader both work on a file.
 */
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from 'hyper-express';
import { AppError, ErrorCode } from '../../common/errors.js';
import { InflateLimitError, isZip, unzip } from '../../common/zip.js';
import { saveBody } from '../http/body.js';

export const ESTIMATE_MAX_BYTES = 50 * 1024 * 1024;
/** What a package's G-code may inflate to: a few times the largest plain upload, and no zip bomb. */
const PACKAGE_INFLATE_LIMITS = { maxBytes: 4 * ESTIMATE_MAX_BYTES, maxRatio: 100 };
const PLATE_GCODE = /^Metadata\/plate_(\d+)\.gcode$/i;

export interface ReceivedGcode {
  /** The G-code file to estimate. */
  path: string;
  uploadBytes: number;
  gcodeBytes: number;
  container: 'gcode' | 'gcode.3mf';
  /** The package entry estimated, and every plate it holds (null for plain G-code). */
  plate: string | null;
  plates: string[] | null;
}

function badRequest(message: string): AppError {
  return new AppError(ErrorCode.badRequest, 400, message);
}

async function startsLikeZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return isZip(head);
  } finally {
    await handle.close();
  }
}

/** The lowest plate's G-code of a `.gcode.3mf`, written to `target`. */
async function extractPlate(packagePath: string, target: string): Promise<{ plate: string; plates: string[]; bytes: number }> {
  let entries: Map<string, Uint8Array>;
  try {
    entries = unzip(await readFile(packagePath), (name) => PLATE_GCODE.test(name), PACKAGE_INFLATE_LIMITS);
  } catch (err) {
    if (err instanceof InflateLimitError) throw new AppError(ErrorCode.payloadTooLarge, 413, `the package is too large: ${err.message}`);
    throw badRequest(`not a readable .gcode.3mf package: ${(err as Error).message}`);
  }
  const plates = [...entries.keys()].sort((a, b) => plateNumber(a) - plateNumber(b));
  if (plates.length === 0) throw badRequest('the package holds no G-code (no Metadata/plate_<n>.gcode entry)');
  const data = entries.get(plates[0]) as Uint8Array;
  await writeFile(target, data, { mode: 0o600 });
  return { plate: plates[0], plates, bytes: data.length };
}

function plateNumber(name: string): number {
  return Number(PLATE_GCODE.exec(name)?.[1] ?? Number.MAX_SAFE_INTEGER);
}

/** Receives the upload into `dir` and returns the G-code file to estimate. */
export async function receiveGcode(request: Request, dir: string, maxBytes = ESTIMATE_MAX_BYTES): Promise<ReceivedGcode> {
  const upload = join(dir, 'upload');
  const uploadBytes = await saveBody(request, upload, maxBytes);
  if (uploadBytes === 0) throw badRequest('the body is empty: send the G-code or .gcode.3mf file as the request body');
  if (!(await startsLikeZip(upload))) {
    return { path: upload, uploadBytes, gcodeBytes: uploadBytes, container: 'gcode', plate: null, plates: null };
  }
  const gcode = join(dir, 'plate.gcode');
  const { plate, plates, bytes } = await extractPlate(upload, gcode);
  return { path: gcode, uploadBytes, gcodeBytes: bytes, container: 'gcode.3mf', plate, plates };
}
