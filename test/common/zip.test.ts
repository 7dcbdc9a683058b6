import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { crc32 } from '../../appliance/common/crc32.js';
import { isZip, unzip } from '../../appliance/common/zip.js';

const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

interface RawEntry {
  name: string;
  data: Uint8Array;
  method?: number;
  flags?: number;
}

/**
 * A zip written field by field, so the reader meets what fflate never writes: Zip64 records (every
 * size and offset moved to the Zip64 extra field, as writers that always use Zip64 do), other
 * compression methods and flags.
 */
function rawZip(entries: RawEntry[], options: { zip64?: boolean } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const directory: Uint8Array[] = [];
  let offset = 0;
  const bytes = (size: number, fill: (v: DataView) => void) => {
    const out = new Uint8Array(size);
    fill(new DataView(out.buffer));
    return out;
  };
  for (const e of entries) {
    const name = strToU8(e.name);
    const method = e.method ?? 8;
    const stored = method === 8 ? deflateRawSync(e.data) : e.data;
    const crc = crc32(e.data);
    const big = options.zip64 ? 0xffffffff : 0;
    const local = bytes(30, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(6, e.flags ?? 0, true);
      v.setUint16(8, method, true);
      v.setUint32(14, crc, true);
      v.setUint32(18, stored.length, true);
      v.setUint32(22, e.data.length, true);
      v.setUint16(26, name.length, true);
    });
    const extra = options.zip64
      ? bytes(28, (v) => {
          v.setUint16(0, 0x0001, true);
          v.setUint16(2, 24, true);
          v.setBigUint64(4, BigInt(e.data.length), true);
          v.setBigUint64(12, BigInt(stored.length), true);
          v.setBigUint64(20, BigInt(offset), true);
        })
      : new Uint8Array(0);
    const header = bytes(46, (v) => {
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(8, e.flags ?? 0, true);
      v.setUint16(10, method, true);
      v.setUint32(16, crc, true);
      v.setUint32(20, big || stored.length, true);
      v.setUint32(24, big || e.data.length, true);
      v.setUint16(28, name.length, true);
      v.setUint16(30, extra.length, true);
      v.setUint32(42, big || offset, true);
    });
    parts.push(local, name, stored);
    directory.push(header, name, extra);
    offset += local.length + name.length + stored.length;
  }
  const directorySize = directory.reduce((n, p) => n + p.length, 0);
  const tail: Uint8Array[] = [];
  if (options.zip64) {
    const end64At = offset + directorySize;
    tail.push(bytes(56, (v) => {
      v.setUint32(0, 0x06064b50, true);
      v.setBigUint64(4, 44n, true);
      v.setBigUint64(24, BigInt(entries.length), true);
      v.setBigUint64(32, BigInt(entries.length), true);
      v.setBigUint64(40, BigInt(directorySize), true);
      v.setBigUint64(48, BigInt(offset), true);
    }));
    tail.push(bytes(20, (v) => {
      v.setUint32(0, 0x07064b50, true);
      v.setBigUint64(8, BigInt(end64At), true);
      v.setUint32(16, 1, true);
    }));
  }
  tail.push(bytes(22, (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, options.zip64 ? 0xffff : entries.length, true);
    v.setUint16(10, options.zip64 ? 0xffff : entries.length, true);
    v.setUint32(12, directorySize, true);
    v.setUint32(16, options.zip64 ? 0xffffffff : offset, true);
  }));
  return new Uint8Array(Buffer.concat([...parts, ...directory, ...tail]));
}

describe('unzip', () => {
  it('reads stored and deflated entries, only those asked for, skipping folders', () => {
    const model = strToU8('<model>'.padEnd(5000, 'x'));
    const archive = zipSync({
      '3D/3dmodel.model': [model, { level: 9 }],
      '_rels/.rels': [strToU8('<Relationships/>'), { level: 0 }],
      'Metadata/plate_1.gcode': strToU8('G28\n'),
      'Metadata/': new Uint8Array(0),
    });
    const files = unzip(archive, (name) => !name.endsWith('.gcode'));
    assert.deepEqual([...files.keys()].sort(), ['3D/3dmodel.model', '_rels/.rels']);
    assert.deepEqual(files.get('3D/3dmodel.model'), model);
    assert.equal(text(files.get('_rels/.rels')), '<Relationships/>');
  });

  it('reads Zip64 archives, stored entries and UTF-8 names', () => {
    const entries = [
      { name: '3D/3dmodel.model', data: strToU8('<model unit="millimeter"/>') },
      { name: 'Metadata/größe.config', data: strToU8('stored as is'), method: 0, flags: 0x800 },
    ];
    for (const zip64 of [false, true]) {
      const files = unzip(rawZip(entries, { zip64 }), () => true);
      assert.equal(text(files.get('3D/3dmodel.model')), '<model unit="millimeter"/>', `zip64 ${zip64}`);
      assert.equal(text(files.get('Metadata/größe.config')), 'stored as is', `zip64 ${zip64}`);
    }
  });

  it('fails with a clear reason on damaged, truncated, encrypted or unsupported archives', () => {
    const good = rawZip([{ name: 'a.model', data: strToU8('hello world'), method: 0 }]);
    const flipped = good.slice();
    flipped[30 + 'a.model'.length] ^= 0xff;
    assert.throws(() => unzip(flipped, () => true), /entry "a.model" fails its CRC check/);
    assert.throws(() => unzip(good.subarray(0, good.length - 10), () => true), /no end of central directory record/);
    const shortened = good.slice();
    new DataView(shortened.buffer).setUint32(shortened.length - 6, 9999, true);
    assert.throws(() => unzip(shortened, () => true), /archive is truncated/);
    assert.throws(() => unzip(rawZip([{ name: 'b.model', data: strToU8('x'), flags: 1 }]), () => true), /entry "b.model" is encrypted/);
    assert.throws(() => unzip(rawZip([{ name: 'c.model', data: strToU8('x'), method: 14 }]), () => true), /compression method 14/);
    const notDeflate = rawZip([{ name: 'd.model', data: strToU8('plain text, not deflate data'), method: 0 }]);
    const view = new DataView(notDeflate.buffer);
    view.setUint16(8, 8, true);
    const directoryAt = view.getUint32(notDeflate.length - 6, true);
    view.setUint16(directoryAt + 10, 8, true);
    assert.throws(() => unzip(notDeflate, () => true), /entry "d.model" (does not inflate|holds \d+ bytes)/);
  });
});

describe('isZip', () => {
  it('knows an archive by its first local header, not by its length or other magic', () => {
    assert.equal(isZip(zipSync({ 'a.txt': strToU8('a') })), true);
    assert.equal(isZip(strToU8('PK')), false);
    assert.equal(isZip(strToU8('solid cube\n')), false);
    assert.equal(isZip(new Uint8Array([0x50, 0x4b, 0x05, 0x06])), false, 'an empty archive holds no part to read');
  });
});
