/**
 * CRC-32 (the checksum of zip entries and PNG chunks): Node's own when it has one (20.15 and later),
 * else a table-driven one, so an older Node 20 still runs.
 */
import * as zlib from 'node:zlib';

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function tableCrc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

export function crc32(bytes: Uint8Array): number {
  return native ? native(bytes) >>> 0 : tableCrc32(bytes);
}
