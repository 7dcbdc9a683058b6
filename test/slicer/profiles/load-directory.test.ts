import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readProfileDirectory } from '../../../appliance/slicer/profiles/load-directory.js';
import { writeOrcaVendor } from '../../fixtures/profiles/orca-vendor.js';

test('a data directory contributes user profiles, PrusaSlicer bundles and OrcaSlicer folders', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-load-dir-'));
  mkdirSync(path.join(dir, 'profiles'), { recursive: true });
  writeFileSync(path.join(dir, 'profiles', 'mine.json'), JSON.stringify({ id: 'mine', kind: 'process', name: 'Mine' }));
  mkdirSync(path.join(dir, 'import', 'prusaslicer'), { recursive: true });
  copyFileSync(path.join(process.cwd(), 'test', 'fixtures', 'profiles', 'acme-bundle.ini'), path.join(dir, 'import', 'prusaslicer', 'Acme.ini'));
  writeFileSync(path.join(dir, 'import', 'prusaslicer', 'README.txt'), 'not a bundle');
  writeOrcaVendor(path.join(dir, 'import', 'orcaslicer'));
  const batch = await readProfileDirectory(dir);
  const sources = new Map<string, number>();
  for (const { profile } of batch.profiles) sources.set(profile.source, (sources.get(profile.source) ?? 0) + 1);
  assert.equal(sources.get('user'), 1);
  assert.equal(sources.get('prusaslicer-import'), 5);
  assert.equal(sources.get('orcaslicer-import'), 11);
  assert.ok(batch.report.skipped.some((s) => s.name === 'Ghost PLA'));
  assert.ok(batch.report.skipped.some((s) => s.name === '0.20mm Orphan @ACME'));
  assert.ok(batch.report.droppedKeys.ironing === 1 && batch.report.droppedKeys.seam_slope_type === 1);
});

test('an empty or missing directory contributes nothing', async () => {
  const batch = await readProfileDirectory(path.join(os.tmpdir(), 'printyard-missing-dir-xyz'));
  assert.deepEqual(batch, { profiles: [], report: { loaded: [], skipped: [], warnings: [], droppedKeys: {} } });
});
