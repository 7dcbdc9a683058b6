/**
 * Reading a zip archive held in memory (a 3MF model, a Bambu `.gcode.3mf`) through its central
 * directory, with Node's own inflate.
 * A JavaScript inflate and its library's loading were a third of the time a small 3MF took to load
 * (the corpus's rigid3d platform: 15 of 43 ms), and inflate runs several times slower in JavaScript
 * on a large package. Stored and deflated entries are read, Zip64 included; every entry read is
 * checked against its CRC-32. Names not flagged as UTF-8 are read as Latin-1 (3MF part names are
 * ASCII, where it and the zip default CP437 agree). Errors are plain `Error`s saying what is wrong.
 *
 * Nothing the archive says about sizes is trusted: the entries to read are refused before any is
 * inflated when their declared sizes pass the caller's limits (a total, and a ratio to the
 * archive's size), and each entry is inflated into one buffer of its declared size that inflate
 * may not overrun, so an entry that lies about its size stops there. A zip bomb costs at most the
 * limits, never what it would inflate to.
 */
import { inflateRawSync } from 'node:zlib';
import { crc32 } from './crc32.js';

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const END_BYTES = 22;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;
const FLAG_ENCRYPTED = 0x1;
const FLAG_UTF8 = 0x800;
/** More entries than a non-Zip64 archive can hold: no package we read has nearly as many. */
const MAX_ENTRIES = 0xffff;
/** Entries that inflate to less than this together are never refused for their ratio. */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

/** What the entries read from one archive may inflate to. */
export interface InflateLimits {
  /** Bytes, all entries read together. */
  maxBytes: number;
  /** Inflated bytes per byte of the archive, all entries read together (past RATIO_FLOOR_BYTES). */
  maxRatio: number;
}

/** The entries asked for would inflate past a limit; nothing was inflated. */
export class InflateLimitError extends Error {
  constructor(
    readonly limit: 'bytes' | 'ratio',
    /** What the entries declare they inflate to. */
    readonly inflatedBytes: number,
    readonly archiveBytes: number,
    readonly limits: InflateLimits,
  ) {
    super(
      limit === 'bytes'
        ? `its entries inflate to ${inflatedBytes} bytes, more than the limit of ${limits.maxBytes}`
        : `its entries inflate to ${inflatedBytes} bytes, ${Math.round(inflatedBytes / archiveBytes)} times its ${archiveBytes} bytes; ` +
            `the limit is ${limits.maxRatio} times`,
    );
    this.name = 'InflateLimitError';
  }
}

/** Whether the bytes start like a zip archive (a local file header). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

interface Entry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

class Reader {
  readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Fails unless `length` bytes from `at` lie inside the archive. */
  need(at: number, length: number, what: string): void {
    if (at < 0 || at + length > this.bytes.length) throw new Error(`the archive is truncated (${what} at byte ${at} runs past its end)`);
  }

  u16(at: number): number {
    return this.view.getUint16(at, true);
  }

  u32(at: number): number {
    return this.view.getUint32(at, true);
  }

  /** A 64-bit size or offset; beyond 2^53 it could not address a byte of an archive in memory anyway. */
  u64(at: number): number {
    return this.u32(at) + this.u32(at + 4) * 0x1_0000_0000;
  }
}

function findEndOfDirectory(r: Reader): number {
  const last = r.bytes.length - END_BYTES;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) {
    if (r.u32(at) === END_OF_DIRECTORY) return at;
  }
  throw new Error('no end of central directory record (not a complete zip archive)');
}

/** Where the central directory starts and how many entries it holds, from the (Zip64) end record. */
function directoryOf(r: Reader): { offset: number; count: number } {
  const end = findEndOfDirectory(r);
  let count = r.u16(end + 10);
  let offset = r.u32(end + 16);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = end - 20;
    r.need(locator, 20, 'Zip64 end locator');
    if (r.u32(locator) !== ZIP64_END_LOCATOR) throw new Error('the archive announces Zip64 but has no Zip64 end locator');
    const end64 = r.u64(locator + 8);
    r.need(end64, 56, 'Zip64 end record');
    if (r.u32(end64) !== ZIP64_END_OF_DIRECTORY) throw new Error('the Zip64 end locator points to no Zip64 end record');
    count = r.u64(end64 + 32);
    offset = r.u64(end64 + 48);
  }
  return { offset, count };
}

/** Sizes and offset too large for their 32-bit fields are in the Zip64 extra field, in this order. */
function applyZip64(r: Reader, entry: Entry, extra: number, extraLength: number): void {
  for (let at = extra; at + 4 <= extra + extraLength; ) {
    const id = r.u16(at);
    const length = r.u16(at + 2);
    if (id === ZIP64_EXTRA) {
      let field = at + 4;
      const take = () => {
        if (field + 8 > at + 4 + length) throw new Error(`entry "${entry.name}": its Zip64 field is too short`);
        const value = r.u64(field);
        field += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = take();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = take();
      if (entry.localHeader === 0xffffffff) entry.localHeader = take();
      return;
    }
    at += 4 + length;
  }
}

/** The entries `wanted` accepts, folders left out; the others are not kept. */
function readDirectory(r: Reader, wanted: (name: string) => boolean): Entry[] {
  const { offset, count } = directoryOf(r);
  if (count > MAX_ENTRIES) throw new Error(`the archive lists ${count} entries, more than the ${MAX_ENTRIES} read`);
  const entries: Entry[] = [];
  let at = offset;
  for (let k = 0; k < count; k++) {
    r.need(at, 46, 'central directory entry');
    if (r.u32(at) !== DIRECTORY_ENTRY) throw new Error(`central directory entry ${k} is damaged`);
    const flags = r.u16(at + 8);
    const nameLength = r.u16(at + 28);
    const extraLength = r.u16(at + 30);
    const commentLength = r.u16(at + 32);
    r.need(at + 46, nameLength + extraLength, 'entry name');
    const nameBytes = r.bytes.subarray(at + 46, at + 46 + nameLength);
    const entry: Entry = {
      name: new TextDecoder(flags & FLAG_UTF8 ? 'utf-8' : 'latin1').decode(nameBytes),
      method: r.u16(at + 10),
      flags,
      crc: r.u32(at + 16),
      compressedSize: r.u32(at + 20),
      size: r.u32(at + 24),
      localHeader: r.u32(at + 42),
    };
    applyZip64(r, entry, at + 46 + nameLength, extraLength);
    if (!entry.name.endsWith('/') && wanted(entry.name)) entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The entry inflated into one buffer of its declared size plus a byte: output that fills it is
 * more than the directory declares, and inflate stops there (the byte is what tells an entry of
 * exactly its size from a longer one). One allocation of that size, not a chunk list joined at
 * the end: half the peak, and a buffer the allocator maps and unmaps as a whole rather than
 * thousands of 16 kB chunks that stay in its heap after they are freed.
 */
function inflate(entry: Entry, stored: Uint8Array): Uint8Array {
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(stored, { chunkSize: Math.max(entry.size + 1, 64), maxOutputLength: Math.max(entry.size, 1) });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new Error(`entry "${entry.name}" inflates to more than the ${entry.size} bytes its directory declares`);
    }
    throw new Error(`entry "${entry.name}" does not inflate (${(err as Error).message})`);
  }
  return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.length);
}

/**
 * Refuses the entries before any is inflated when what they declare passes the limits; the error
 * names the tighter of the two (for a small zip bomb, its ratio).
 */
function checkLimits(entries: readonly Entry[], archiveBytes: number, limits: InflateLimits): void {
  const declared = entries.reduce((sum, e) => sum + e.size, 0);
  const allowedByRatio = Math.max(limits.maxRatio * archiveBytes, RATIO_FLOOR_BYTES);
  if (declared <= Math.min(limits.maxBytes, allowedByRatio)) return;
  throw new InflateLimitError(allowedByRatio < limits.maxBytes ? 'ratio' : 'bytes', declared, archiveBytes, limits);
}

function contentOf(r: Reader, entry: Entry): Uint8Array {
  if (entry.flags & FLAG_ENCRYPTED) throw new Error(`entry "${entry.name}" is encrypted`);
  const header = entry.localHeader;
  r.need(header, 30, `local header of "${entry.name}"`);
  if (r.u32(header) !== LOCAL_HEADER) throw new Error(`the local header of "${entry.name}" is damaged`);
  const start = header + 30 + r.u16(header + 26) + r.u16(header + 28);
  r.need(start, entry.compressedSize, `data of "${entry.name}"`);
  const stored = r.bytes.subarray(start, start + entry.compressedSize);
  let data: Uint8Array;
  // Plain arrays of their own: a part kept after loading (the package thumbnail) must not hold
  // the whole file, and callers compare them as Uint8Arrays, not Buffers.
  if (entry.method === STORED) data = new Uint8Array(stored);
  else if (entry.method === DEFLATED) data = inflate(entry, stored);
  else throw new Error(`entry "${entry.name}" uses compression method ${entry.method}; only stored and deflated entries are read`);
  if (data.length !== entry.size) throw new Error(`entry "${entry.name}" holds ${data.length} bytes, its directory says ${entry.size}`);
  if (crc32(data) !== entry.crc) throw new Error(`entry "${entry.name}" fails its CRC check`);
  return data;
}

/**
 * The contents of the archive's files whose names `wanted` accepts (folders are skipped). Throws
 * InflateLimitError, before inflating anything, when they would inflate past `limits`.
 */
export function unzip(bytes: Uint8Array, wanted: (name: string) => boolean, limits: InflateLimits): Map<string, Uint8Array> {
  const r = new Reader(bytes);
  const entries = readDirectory(r, wanted);
  checkLimits(entries, bytes.length, limits);
  const files = new Map<string, Uint8Array>();
  for (const entry of entries) files.set(entry.name, contentOf(r, entry));
  return files;
}
