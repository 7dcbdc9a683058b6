/**
 * G-code text as lines, from a byte stream that is either plain G-code (read only as far as the
 * caller iterates) or a Bambu `.gcode.3mf` package (a zip: it has to be read whole, then its
 * first plate's `Metadata/plate_<n>.gcode` is used). Told apart by content, not by name.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { isZip, unzip, type InflateLimits } from '../../../common/zip.js';
import { ERR_SLICER_SERVICE } from './errors.js';

const PLATE_GCODE = /^Metadata\/plate_(\d+)\.gcode$/;
/** A package is unzipped in memory; larger ones are refused rather than risking the dashboard. */
export const MAX_PACKAGE_BYTES = 256 * 1024 * 1024;
/** G-code deflates 3-5:1: a full-size package's plate fits, a zip bomb's does not. */
const PACKAGE_INFLATE_LIMITS: InflateLimits = { maxBytes: 4 * MAX_PACKAGE_BYTES, maxRatio: 100 };

async function* splitLines(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of chunks) {
    rest += decoder.decode(chunk, { stream: true });
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  rest += decoder.decode();
  if (rest !== '') yield rest;
}

function plateGcode(pkg: Uint8Array): Uint8Array {
  let files: Map<string, Uint8Array>;
  try {
    files = unzip(pkg, (name) => PLATE_GCODE.test(name), PACKAGE_INFLATE_LIMITS);
  } catch (err) {
    throw new AppError(ERR_SLICER_SERVICE, 502, `the .gcode.3mf package cannot be unpacked (${(err as Error).message})`);
  }
  const plates: Array<{ plate: number; gcode: Uint8Array }> = [];
  for (const [name, gcode] of files) {
    const match = PLATE_GCODE.exec(name);
    if (match) plates.push({ plate: Number(match[1]), gcode });
  }
  const first = plates.sort((a, b) => a.plate - b.plate)[0];
  if (first === undefined) throw new AppError(ERR_SLICER_SERVICE, 502, 'the .gcode.3mf package has no Metadata/plate_<n>.gcode');
  return first.gcode;
}

export async function* gcodeLines(source: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => iterator };
  if (!isZip(first.value)) {
    yield* splitLines(
      (async function* () {
        yield first.value;
        yield* rest;
      })(),
    );
    return;
  }
  const parts: Uint8Array[] = [first.value];
  let size = first.value.length;
  for await (const chunk of rest) {
    size += chunk.length;
    if (size > MAX_PACKAGE_BYTES)
      throw new AppError(ErrorCode.payloadTooLarge, 413, `the .gcode.3mf package is larger than ${MAX_PACKAGE_BYTES / (1024 * 1024)} MB`);
    parts.push(chunk);
  }
  yield* splitLines([plateGcode(Buffer.concat(parts))]);
}
