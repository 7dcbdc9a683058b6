import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { InflateLimitError, isZip, RATIO_FLOOR_BYTES, unzip, type InflateLimits } from '../../appliance/common/zip.js';
import { rawZip, repeatedDeflate, zipBomb3mf } from '../fixtures/zip.js';

const MIB = 1024 * 1024;
const LIMITS: InflateLimits = { maxBytes: 512 * MIB, maxRatio: 100 };
const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

describe('unzip', () => {
  it('reads stored and deflated entries, only those asked for, skipping folders', () => {
    const model = strToU8('<model>'.padEnd(5000, 'x'));
    const archive = zipSync({
      '3D/3dmodel.model': [model, { level: 9 }],
      '_rels/.rels': [strToU8('<Relationships/>'), { level: 0 }],
      'Metadata/plate_1.gcode': strToU8('G28\n'),
      'Metadata/': new Uint8Array(0),
    });
    const files = unzip(archive, (name) => !name.endsWith('.gcode'), LIMITS);
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
      const files = unzip(rawZip(entries, { zip64 }), () => true, LIMITS);
      assert.equal(text(files.get('3D/3dmodel.model')), '<model unit="millimeter"/>', `zip64 ${zip64}`);
      assert.equal(text(files.get('Metadata/größe.config')), 'stored as is', `zip64 ${zip64}`);
    }
  });

  it('fails with a clear reason on damaged, truncated, encrypted or unsupported archives', () => {
    const good = rawZip([{ name: 'a.model', data: strToU8('hello world'), method: 0 }]);
    const flipped = good.slice();
    flipped[30 + 'a.model'.length] ^= 0xff;
    assert.throws(() => unzip(flipped, () => true, LIMITS), /entry "a.model" fails its CRC check/);
    assert.throws(() => unzip(good.subarray(0, good.length - 10), () => true, LIMITS), /no end of central directory record/);
    const shortened = good.slice();
    new DataView(shortened.buffer).setUint32(shortened.length - 6, 9999, true);
    assert.throws(() => unzip(shortened, () => true, LIMITS), /archive is truncated/);
    assert.throws(() => unzip(rawZip([{ name: 'b.model', data: strToU8('x'), flags: 1 }]), () => true, LIMITS), /entry "b.model" is encrypted/);
    assert.throws(() => unzip(rawZip([{ name: 'c.model', data: strToU8('x'), method: 14 }]), () => true, LIMITS), /compression method 14/);
    const notDeflate = rawZip([{ name: 'd.model', data: strToU8('plain text, not deflate data'), method: 0 }]);
    const view = new DataView(notDeflate.buffer);
    view.setUint16(8, 8, true);
    const directoryAt = view.getUint32(notDeflate.length - 6, true);
    view.setUint16(directoryAt + 10, 8, true);
    assert.throws(() => unzip(notDeflate, () => true, LIMITS), /entry "d.model" (does not inflate|holds \d+ bytes)/);
  });
});

/** The process's peak resident memory so far, in MB. */
function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

describe('unzip limits', () => {
  it('refuses a zip bomb by the sizes it declares, before inflating anything, naming the tighter limit', () => {
    const bomb = zipBomb3mf();
    assert.ok(bomb.length < 1.1 * MIB, `a 1 GiB model part in ${bomb.length} bytes`);
    const before = peakRssMb();
    assert.throws(
      () => unzip(bomb, () => true, { maxBytes: 2048 * MIB, maxRatio: 100 }),
      (err: InflateLimitError) =>
        err instanceof InflateLimitError &&
        err.limit === 'ratio' &&
        err.inflatedBytes > 1024 * MIB &&
        /inflate to \d+ bytes, 10\d\d times its \d+ bytes; the limit is 100 times/.test(err.message),
    );
    assert.throws(
      () => unzip(bomb, () => true, { maxBytes: 512 * MIB, maxRatio: 1000 }),
      (err: InflateLimitError) => err instanceof InflateLimitError && err.limit === 'bytes' && /more than the limit of 536870912/.test(err.message),
    );
    assert.ok(peakRssMb() - before < 64, `peak memory grew by ${Math.round(peakRssMb() - before)} MB`);
  });

  it('counts every entry read, and only those', () => {
    const part = (name: string) => ({ name, data: new Uint8Array(3 * MIB) });
    const archive = rawZip([part('a.model'), part('b.model'), part('c.png')]);
    const limits = { maxBytes: 7 * MIB, maxRatio: 100_000 };
    assert.throws(() => unzip(archive, () => true, limits), /inflate to 9437184 bytes, more than the limit of 7340032/);
    assert.deepEqual([...unzip(archive, (name) => name.endsWith('.model'), limits).keys()], ['a.model', 'b.model']);
  });

  it('leaves the ratio alone below a megabyte: small parts compress as they like', () => {
    const data = new Uint8Array(RATIO_FLOOR_BYTES - 1);
    const archive = rawZip([{ name: 'blank.model', data }]);
    assert.ok(data.length / archive.length > 100);
    assert.equal(unzip(archive, () => true, LIMITS).get('blank.model')?.length, data.length);
  });

  it('stops an entry that inflates past the size it declares, and reads one of exactly its size', () => {
    const liar = zipBomb3mf({ inflatedMiB: 64, declaredSize: 100_000 });
    const before = peakRssMb();
    assert.throws(() => unzip(liar, () => true, LIMITS), /entry "3D\/3dmodel.model" inflates to more than the 100000 bytes its directory declares/);
    assert.ok(peakRssMb() - before < 32, `peak memory grew by ${Math.round(peakRssMb() - before)} MB`);
    const exact = repeatedDeflate(strToU8('<m>'), strToU8('x'.repeat(1000)), 3, strToU8('</m>'));
    const files = unzip(rawZip([{ name: 'm.model', deflated: exact }]), () => true, LIMITS);
    assert.equal(files.get('m.model')?.length, 3007);
  });

  it('refuses an archive that lists more entries than any package holds', () => {
    const archive = rawZip([{ name: 'a.model', data: strToU8('a') }], { zip64: true });
    const view = new DataView(archive.buffer);
    const end64 = archive.length - 22 - 20 - 56;
    view.setBigUint64(end64 + 24, 70_000n, true);
    view.setBigUint64(end64 + 32, 70_000n, true);
    assert.throws(() => unzip(archive, () => true, LIMITS), /lists 70000 entries, more than the 65535 read/);
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
