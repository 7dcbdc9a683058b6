import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadScript } from '../../fixtures/load-script.js';

interface LargeModelsModule {
  writeScanStl(path: string, size?: { rings: number; segments: number }): number;
  CSG_SOURCES: Record<string, string>;
  LARGE_MODELS: string[];
}

const large = await loadScript<LargeModelsModule>('scripts/bench/large-models.mjs');
const dir = mkdtempSync(join(tmpdir(), 'printyard-large-models-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Corner points of every facet of a binary STL, as "x,y,z" keys. */
function facets(bytes: Buffer): string[][] {
  const count = bytes.readUInt32LE(80);
  const out: string[][] = [];
  for (let t = 0; t < count; t++) {
    const corners: string[] = [];
    for (let c = 0; c < 3; c++) {
      const o = 84 + t * 50 + 12 + c * 12;
      corners.push(`${bytes.readFloatLE(o)},${bytes.readFloatLE(o + 4)},${bytes.readFloatLE(o + 8)}`);
    }
    out.push(corners);
  }
  return out;
}

describe('the scan-like mesh', () => {
  const path = join(dir, 'scan.stl');
  const triangles = large.writeScanStl(path, { rings: 40, segments: 60 });
  const bytes = readFileSync(path);

  it('is a binary STL of 2 · rings · segments triangles', () => {
    assert.equal(triangles, 2 * 40 * 60);
    assert.equal(bytes.readUInt32LE(80), triangles);
    assert.equal(bytes.length, 84 + 50 * triangles);
  });

  it('is closed and consistently oriented: every directed edge once, its reverse once', () => {
    const directed = new Map<string, number>();
    for (const [a, b, c] of facets(bytes)) {
      for (const [p, q] of [
        [a, b],
        [b, c],
        [c, a],
      ]) {
        directed.set(`${p}>${q}`, (directed.get(`${p}>${q}`) ?? 0) + 1);
      }
    }
    for (const [edge, count] of directed) {
      assert.equal(count, 1, `edge ${edge} is used ${count} times`);
      const [p, q] = edge.split('>');
      assert.ok(directed.has(`${q}>${p}`), `edge ${edge} has no twin`);
    }
  });

  it('is the same file every time, and bust-sized', () => {
    const again = join(dir, 'again.stl');
    large.writeScanStl(again, { rings: 40, segments: 60 });
    assert.ok(readFileSync(again).equals(bytes));
    const zs = facets(bytes).flatMap((f) => f.map((p) => Number(p.split(',')[2])));
    const height = Math.max(...zs) - Math.min(...zs);
    assert.ok(height > 100 && height < 140, `height ${height}`);
  });
});

describe('the CSG models', () => {
  it('are differences of fine primitives without minkowski, each a --large model', () => {
    const names = Object.keys(large.CSG_SOURCES);
    assert.deepEqual(names, ['csg-ball-fn200.stl', 'csg-twist-fn240.stl']);
    for (const name of names) {
      const source = large.CSG_SOURCES[name];
      assert.match(source, /difference\(\)/, name);
      assert.match(source, /\$fn = (200|240)/, name);
      assert.doesNotMatch(source, /minkowski/, name);
      assert.ok(large.LARGE_MODELS.includes(name));
    }
  });
});
