import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadScript } from '../../fixtures/load-script.js';

interface DefinitionsModule {
  curaEngineRelease(): string;
  ensureCuraDefinitions(root: string): string;
}

const definitions = await loadScript<DefinitionsModule>('scripts/bench/cura-definitions.mjs');
const engine = existsSync('/usr/bin/CuraEngine');

describe('curaEngineRelease', () => {
  it('reads the major.minor release of the installed CuraEngine', { skip: !engine && 'CuraEngine not installed' }, () => {
    assert.equal(definitions.curaEngineRelease(), '4.13');
  });
});

describe('ensureCuraDefinitions', { skip: !engine && 'CuraEngine not installed' }, () => {
  const root = mkdtempSync(join(tmpdir(), 'printyard-cura-defs-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("extracts only the definitions from a cached cura .deb of the engine's release", () => {
    // A stand-in for Debian's cura package: definitions plus a file that must not be extracted.
    const tree = join(root, 'pkg');
    const defs = join(tree, 'usr', 'share', 'cura', 'resources', 'definitions');
    mkdirSync(join(tree, 'DEBIAN'), { recursive: true });
    mkdirSync(defs, { recursive: true });
    mkdirSync(join(tree, 'usr', 'bin'), { recursive: true });
    writeFileSync(
      join(tree, 'DEBIAN', 'control'),
      'Package: cura\nVersion: 4.13.0-1\nArchitecture: all\nMaintainer: test <t@example.invalid>\nDescription: stand-in\n',
    );
    writeFileSync(join(defs, 'fdmprinter.def.json'), '{"name": "printer"}');
    writeFileSync(join(defs, 'fdmextruder.def.json'), '{"name": "extruder"}');
    writeFileSync(join(defs, 'notes.txt'), 'not a definition');
    writeFileSync(join(tree, 'usr', 'bin', 'cura'), '#!/bin/sh\n');
    const cache = join(root, '.cache', 'peers');
    mkdirSync(cache, { recursive: true });
    const built = spawnSync('dpkg-deb', ['--build', '--root-owner-group', tree, join(cache, 'cura_4.13.0-1_all.deb')], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);

    const printer = definitions.ensureCuraDefinitions(root);
    assert.equal(printer, join(cache, 'cura-4.13', 'definitions', 'fdmprinter.def.json'));
    assert.equal(readFileSync(printer, 'utf8'), '{"name": "printer"}');
    assert.deepEqual(readdirSync(join(cache, 'cura-4.13', 'definitions')).sort(), ['fdmextruder.def.json', 'fdmprinter.def.json']);
    assert.deepEqual(readdirSync(join(cache, 'cura-4.13')), ['definitions']);
  });

  it('uses the extracted definitions without touching the package again', () => {
    rmSync(join(root, '.cache', 'peers', 'cura_4.13.0-1_all.deb'));
    assert.equal(definitions.ensureCuraDefinitions(root), join(root, '.cache', 'peers', 'cura-4.13', 'definitions', 'fdmprinter.def.json'));
  });
});
