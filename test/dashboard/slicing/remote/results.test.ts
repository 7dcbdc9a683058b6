import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { SliceResults } from '../../../../appliance/dashboard/slicing/remote/results.js';
import type { SliceJobResult } from '../../../../appliance/dashboard/slicing/backend.js';

const OWNER = { kind: 'user' as const, id: 'u-1', name: 'ada' };
const root = mkdtempSync(path.join(os.tmpdir(), 'printyard-slice-results-'));
after(() => rmSync(root, { recursive: true, force: true }));

function sliced(dir: string): SliceJobResult {
  const gcodePath = path.join(dir, 'cube.gcode');
  writeFileSync(gcodePath, 'G28\n');
  return {
    backend: 'native',
    gcodePath,
    format: 'gcode',
    sizeBytes: 4,
    layers: 50,
    estimatedTimeS: 430.6,
    filamentMm: [217.5],
    filamentG: [0.65],
    durationMs: 812.4,
    skipped: [{ backend: 'remote', reason: 'disabled' }],
    warnings: [],
  };
}

test('a saved result can be read back with its download path and owner, without a server path; unknown ids are 404', async () => {
  const results = new SliceResults(mkdtempSync(path.join(root, 'a-')));
  await results.start();
  const { id, dir } = await results.create();
  const stored = await results.save(id, sliced(dir), OWNER);
  assert.deepEqual(
    { ...stored, created_at: 'x' },
    {
      id,
      created_at: 'x',
      backend: 'native',
      skipped: [{ backend: 'remote', reason: 'disabled' }],
      file_name: 'cube.gcode',
      format: 'gcode',
      size_bytes: 4,
      layers: 50,
      estimated_time_s: 431,
      filament_mm: [217.5],
      filament_g: [0.65],
      duration_ms: 812,
      warnings: [],
      gcode_url: `/api/slicer/results/${id}/gcode`,
      owner: OWNER,
    },
  );
  assert.ok(!JSON.stringify(stored).includes(dir), 'no server path in the record');
  assert.deepEqual(await results.get(id), stored);
  assert.equal(results.filePath(stored), path.join(dir, 'cube.gcode'));
  await assert.rejects(results.get('0123456789abcdef'), { status: 404 });
  await assert.rejects(results.get('../etc'), { status: 404 });
});

test('retention: the newest `keep` within `keepMs`; leftovers of a crash go at start, a running slice does not', async () => {
  const dataDir = mkdtempSync(path.join(root, 'b-'));
  let now = Date.UTC(2026, 0, 1);
  const results = new SliceResults(dataDir, { keep: 2, keepMs: 3600_000 }, () => new Date(now));
  await results.start();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { id, dir } = await results.create();
    await results.save(id, sliced(dir), OWNER);
    ids.push(id);
    now += 1000;
  }
  const running = await results.create();
  await results.sweep();
  await assert.rejects(results.get(ids[0]), { status: 404 });
  await results.get(ids[1]);
  assert.ok(existsSync(running.dir), 'a folder without a record may be a slice in progress');
  now += 2 * 3600_000;
  await results.sweep();
  await assert.rejects(results.get(ids[2]), { status: 404 });

  const leftover = path.join(results.root, 'aaaaaaaaaaaaaaaa');
  mkdirSync(leftover);
  await new SliceResults(dataDir).start();
  assert.ok(!existsSync(leftover));
});
