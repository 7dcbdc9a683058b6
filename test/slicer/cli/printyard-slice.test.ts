import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { cube, toBinaryStl } from '../../fixtures/meshes.js';
import { tempDir } from '../../fixtures/slicing.js';

const CLI = fileURLToPath(new URL('../../../appliance/slicer/cli/printyard-slice.js', import.meta.url));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const PROFILE = ['--printer', 'generic-marlin-0.4', '--filament', 'generic-pla', '--process', '0.20mm-standard'];

test('--list-profiles --json lists every kind with id, kind, name and vendor', () => {
  const r = run('--list-profiles', '--json');
  assert.equal(r.status, 0, r.stderr);
  const { profiles } = JSON.parse(r.stdout) as { profiles: { id: string; kind: string; name: string; vendor: string }[] };
  for (const kind of ['printer', 'filament', 'process']) assert.ok(profiles.some((p) => p.kind === kind), kind);
  const marlin = profiles.find((p) => p.id === 'generic-marlin-0.4');
  assert.ok(marlin && /Generic Marlin/.test(marlin.name) && marlin.vendor);
  const printers = JSON.parse(run('--list-profiles', '--json', '--kind', 'printer').stdout).profiles as { kind: string }[];
  assert.ok(printers.length > 5 && printers.every((p) => p.kind === 'printer'));
});

test('runs as an installed command does: executable, through its first line and the runtime settings there', () => {
  const r = spawnSync(CLI, ['--version'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\d+\.\d+\.\d+\s*$/);
});

test('--list-profiles prints a table for people', () => {
  const r = run('--list-profiles', '--kind', 'process');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^process\s+0\.20mm-standard\s+/m);
});

test('slices a model to the output file and says what it made', () => {
  const dir = tempDir();
  const model = join(dir, 'cube.stl');
  writeFileSync(model, toBinaryStl(cube(10)));
  const out = join(dir, 'cube.gcode');
  const r = run(model, '-o', out, ...PROFILE, '--set', 'sparse_infill_density=20%', '--set', 'wall_loops=3');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /50 layers/);
  const gcode = readFileSync(out, 'utf8');
  assert.match(gcode, /; sparse_infill_density = 20%/);
  assert.match(gcode, /; wall_loops = 3/);
});

test('errors name what is wrong and exit non-zero, leaving no output', () => {
  const dir = tempDir();
  const model = join(dir, 'cube.stl');
  writeFileSync(model, toBinaryStl(cube(10)));
  const out = join(dir, 'x.gcode');
  const cases: [string[], RegExp][] = [
    [[model, '-o', out, '--printer', 'no-such-printer', '--filament', 'generic-pla', '--process', '0.20mm-standard'], /unknown printer profile "no-such-printer"/],
    [[model, '-o', out, ...PROFILE, '--set', 'no_such_setting=1'], /unknown setting "no_such_setting"/],
    [[model, '-o', out, ...PROFILE, '--set', 'layer_height=thick'], /layer_height/],
    [[model, '-o', out, ...PROFILE, '--set', 'layer_height'], /key=value/],
    [[join(dir, 'missing.stl'), '-o', out, ...PROFILE], /cannot read model/],
    [[model, ...PROFILE], /missing --output/],
    [['--frobnicate'], /unknown option --frobnicate/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.match(r.stderr, message);
  }
  writeFileSync(join(dir, 'bad.stl'), 'this is not a model, only some words that make up a text file');
  const bad = run(join(dir, 'bad.stl'), '-o', out, ...PROFILE);
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /neither|STL|3MF/);
  assert.equal(existsSync(out), false);
});

test('a Bambu printer needs a .gcode.3mf output name', () => {
  const dir = tempDir();
  const model = join(dir, 'cube.stl');
  writeFileSync(model, toBinaryStl(cube(10)));
  const r = run(model, '-o', join(dir, 'x.gcode'), '--printer', 'bambu-lab-p1s-0.4', '--filament', 'generic-pla', '--process', '0.20mm-standard');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /\.gcode\.3mf/);
});

test('--help prints the usage', () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /printyard-slice MODEL -o OUT\.gcode --printer ID --filament ID/);
});
