import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadScript } from '../../fixtures/load-script.js';

interface Profile {
  printerId: string;
  filamentId: string;
  processId: string;
  overrides: [string, string][];
}
interface ProfileModule {
  BENCH_PROFILE: Profile;
  distPaths(root: string, dist: string): { cli: string; catalogue: string; schema: string };
  oursCliArgs(cliPath: string, model: string, output: string, profile?: Profile): string[];
  resolveBenchConfig(root: string, dist: string, profile?: Profile): Promise<{ config: Record<string, unknown>; source: string }>;
}

const bench = await loadScript<ProfileModule>('scripts/bench/bench-profile.mjs');

describe('oursCliArgs', () => {
  it('is the documented command line of our CLI for the bench profile', () => {
    assert.deepEqual(bench.oursCliArgs('dist/appliance/slicer/cli/printyard-slice.js', 'box.stl', 'out.gcode'), [
      'dist/appliance/slicer/cli/printyard-slice.js',
      'box.stl',
      '-o',
      'out.gcode',
      '--printer',
      'generic-marlin-0.4',
      '--filament',
      'generic-pla',
      '--process',
      '0.20mm-standard',
      '--set',
      'sparse_infill_density=15%',
      '--set',
      'initial_layer_infill_speed=30',
      '--set',
      'brim_type=no_brim',
      '--set',
      'ensure_vertical_shell_thickness=ensure_all',
    ]);
  });
});

describe('resolveBenchConfig', () => {
  // A stand-in build folder: a schema module, and optionally a catalogue that records its call.
  const root = mkdtempSync(join(tmpdir(), 'printyard-bench-profile-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const profiles = (dist: string): string => join(root, dist, 'appliance', 'slicer', 'profiles');
  const schema = [
    'export function defaultConfig() { return { layer_height: 0.2, sparse_infill_density: 20, wall_loops: 2 }; }',
    "export function parseSetting(key, raw) { const n = Number(String(raw).replace('%', '')); return Number.isNaN(n) ? raw : n; }",
  ].join('\n');
  for (const dist of ['plain', 'catalogued', 'broken']) {
    mkdirSync(profiles(dist), { recursive: true });
    writeFileSync(join(profiles(dist), 'schema.js'), schema);
  }
  writeFileSync(
    join(profiles('catalogued'), 'catalogue.js'),
    [
      'export class ProfileCatalogue {',
      '  static async bundled() { return new ProfileCatalogue(); }',
      '  resolveConfig(request) { return { layer_height: 0.2, wall_loops: 3, request }; }',
      '}',
    ].join('\n'),
  );
  writeFileSync(
    join(profiles('broken'), 'catalogue.js'),
    'export class ProfileCatalogue { static bundled() { return new ProfileCatalogue(); } resolveConfig() { return { ok: true }; } }',
  );

  it('uses the schema defaults with the bench overrides until the catalogue is built', async () => {
    const { config, source } = await bench.resolveBenchConfig(root, 'plain');
    assert.deepEqual(config, {
      layer_height: 0.2,
      sparse_infill_density: 15,
      wall_loops: 2,
      initial_layer_infill_speed: 30,
      brim_type: 'no_brim',
      ensure_vertical_shell_thickness: 'ensure_all',
    });
    assert.match(source, /schema defaults/);
  });

  it('asks the catalogue for the bench profile with parsed overrides once it exists', async () => {
    const { config, source } = await bench.resolveBenchConfig(root, 'catalogued');
    assert.equal(config.wall_loops, 3);
    assert.deepEqual(config.request, {
      printerId: 'generic-marlin-0.4',
      filamentIds: ['generic-pla'],
      processId: '0.20mm-standard',
      overrides: { sparse_infill_density: 15, initial_layer_infill_speed: 30, brim_type: 'no_brim', ensure_vertical_shell_thickness: 'ensure_all' },
    });
    assert.match(source, /profile catalogue/);
  });

  it('refuses a catalogue answer that is not a resolved config, and a missing build', async () => {
    await assert.rejects(bench.resolveBenchConfig(root, 'broken'), /did not return a resolved config/);
    await assert.rejects(bench.resolveBenchConfig(root, 'nowhere'), /build first/);
  });
});
