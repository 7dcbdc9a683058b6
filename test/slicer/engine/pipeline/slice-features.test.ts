import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { unzipSync, strFromU8 } from 'fflate';
import { bridge, cube, merge, overhang, solidFromBoxes, to3mf, twoObjects } from '../../../fixtures/meshes.js';
import { cleanup, config, extrusions, slice } from '../../../fixtures/slicing.js';

test('an overhang gets support only when supports are on, under the overhang, not on the part', async () => {
  const off = await slice(overhang(), await config());
  const on = await slice(overhang(), await config({ enable_support: true }));
  try {
    assert.ok(!off.gcode.includes(';TYPE:Support material'));
    const support = extrusions(on.gcode).filter((m) => m.type.startsWith('Support material'));
    assert.ok(support.length > 0);
    assert.ok(on.gcode.includes(';TYPE:Support material interface'), 'a dense interface under the overhang');
    // The part's own first-layer footprint carries no support.
    const part = extrusions(on.gcode).filter((m) => m.layer === 0 && m.type === 'External perimeter');
    const minX = Math.min(...part.map((m) => m.x));
    const maxX = Math.max(...part.map((m) => m.x));
    const minY = Math.min(...part.map((m) => m.y));
    const maxY = Math.max(...part.map((m) => m.y));
    const onPart = support.filter((m) => m.layer === 0 && m.x > minX + 0.5 && m.x < maxX - 0.5 && m.y > minY + 0.5 && m.y < maxY - 0.5);
    assert.equal(onPart.length, 0);
    assert.ok(on.result.filament.g[0] > off.result.filament.g[0]);
  } finally {
    cleanup(off);
    cleanup(on);
  }
});

test('supports on the build plate only never stand on the part', async () => {
  // A pillar with a shelf at z 15..20 reaching over a 5 mm step at x 10..30 and over air at x 30..40.
  const shelf = solidFromBoxes([
    { min: [0, 0, 0], max: [30, 10, 5] },
    { min: [0, 0, 5], max: [10, 10, 15] },
    { min: [0, 0, 15], max: [40, 10, 20] },
  ]);
  const anywhere = await slice(shelf, await config({ enable_support: true }));
  const plateOnly = await slice(shelf, await config({ enable_support: true, support_on_build_plate_only: true }));
  try {
    const support = (g: string) => extrusions(g).filter((m) => m.type.startsWith('Support material'));
    const over = (g: string) => support(g).filter((m) => m.x < 30 + 100 - 20 && m.layer > 25);
    // Bed coordinates: the part is centred, so x 10..30 of the part is x 100..120 on the bed.
    assert.ok(over(anywhere.gcode).length > 0, 'by default the shelf is supported from the step');
    assert.equal(over(plateOnly.gcode).length, 0, 'plate-only puts nothing on the step');
    assert.ok(
      support(plateOnly.gcode).some((m) => m.layer === 0),
      'the part over air is still supported from the plate',
    );
  } finally {
    cleanup(anywhere);
    cleanup(plateOnly);
  }
});

test('a bridge over air is printed as bridge infill with the bridge fan', async () => {
  const s = await slice(
    bridge(),
    await config({ overhang_fan_speed: [100], fan_max_speed: [60], fan_min_speed: [60], close_fan_the_first_x_layers: [1] }),
  );
  try {
    assert.ok(s.gcode.includes(';TYPE:Bridge infill'));
    const lines = s.gcode.split('\n');
    const at = lines.indexOf(';TYPE:Bridge infill');
    const before = lines.slice(Math.max(0, at - 12), at);
    assert.ok(before.includes('M106 S255'), 'fan to the bridge speed before bridging');
    const moves = extrusions(s.gcode).filter((m) => m.type === 'Bridge infill');
    assert.ok(moves.length > 3);
  } finally {
    cleanup(s);
  }
});

test('two objects are labelled for cancel-object on Marlin (M486) and retract between them', async () => {
  const [a, b] = twoObjects();
  const s = await slice(merge([a, b]), await config());
  try {
    // Two separate shells in one STL are one object; labels still bracket its moves.
    assert.match(s.gcode, /^M486 T1$/m);
    assert.match(s.gcode, /^; printing object part\nM486 S0$/m);
    assert.doesNotMatch(s.gcode, /^M486 .*A/m, 'no name on the M486 line: stock Marlin would read its capitals as parameters');
    assert.match(s.gcode, /^M486 S-1$/m);
  } finally {
    cleanup(s);
  }
});

test('Klipper: EXCLUDE_OBJECT labels for each 3MF object, and no M201/M203 limits', async () => {
  const [a, b] = twoObjects();
  const file = to3mf({
    objects: [
      { id: 1, name: 'left', mesh: a },
      { id: 2, name: 'right', mesh: b },
    ],
    items: [{ objectId: 1 }, { objectId: 2 }],
  });
  const s = await slice(file, await config({}, 'generic-klipper-0.4'));
  try {
    const defs = s.gcode.match(/^EXCLUDE_OBJECT_DEFINE NAME=\S+ CENTER=[\d.]+,[\d.]+ POLYGON=\[\[.*\]\]$/gm) ?? [];
    assert.equal(defs.length, 2);
    assert.match(s.gcode, /^EXCLUDE_OBJECT_START NAME=left_id_0$/m);
    assert.match(s.gcode, /^EXCLUDE_OBJECT_END NAME=right_id_1$/m);
    assert.doesNotMatch(s.gcode, /^M20[13] /m);
    assert.match(s.gcode, /^PRINT_START /m);
    assert.doesNotMatch(s.gcode, /^M486/m);
  } finally {
    cleanup(s);
  }
});

test('Marlin 2 writes the machine limits when the profile asks', async () => {
  const s = await slice(cube(10), await config({ emit_machine_limits_to_gcode: true }));
  try {
    assert.match(s.gcode, /^M201 X\d+ Y\d+ Z\d+ E\d+/m);
    assert.match(s.gcode, /^M203 /m);
  } finally {
    cleanup(s);
  }
});

test('a 3MF keeps the positions its build gives and slices every object', async () => {
  const file = to3mf({
    objects: [
      { id: 1, name: 'a', mesh: cube(10) },
      { id: 2, name: 'b', mesh: cube(10) },
    ],
    items: [
      { objectId: 1, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 40, 50, 0] },
      { objectId: 2, transform: [0, 1, 0, -1, 0, 0, 0, 0, 1, 150, 120, 0] },
    ],
  });
  const s = await slice(file, await config());
  try {
    const moves = extrusions(s.gcode).filter((m) => m.layer === 10 && m.type === 'External perimeter');
    const near = (x: number, y: number) => moves.some((m) => Math.abs(m.x - x) < 11 && Math.abs(m.y - y) < 11 && m.x >= x - 0.5 && m.y >= y - 11);
    assert.ok(near(40, 50), 'object a at its build position');
    assert.ok(
      moves.some((m) => m.x > 139 && m.x < 151 && m.y > 119 && m.y < 131),
      'object b rotated about its origin to x 140..150',
    );
  } finally {
    cleanup(s);
  }
});

test('Bambu Lab: a .gcode.3mf with the plate G-code, its MD5 and slice info', async () => {
  const s = await slice(cube(15), await config({}, 'bambu-lab-p1s-0.4', ['generic-pla']));
  try {
    assert.equal(s.result.format, 'gcode.3mf');
    const zip = unzipSync(new Uint8Array(readFileSync(s.result.outputPath)));
    const gcode = zip['Metadata/plate_1.gcode'];
    assert.ok(gcode, 'plate G-code present');
    const text = strFromU8(gcode);
    assert.match(text, /^; HEADER_BLOCK_START/);
    assert.match(text, /; EXECUTABLE_BLOCK_START/);
    assert.match(text, /; FEATURE: Outer wall/);
    assert.match(text, /; CHANGE_LAYER/);
    assert.match(text, /^M106 P1 S\d+/m);
    assert.equal(strFromU8(zip['Metadata/plate_1.gcode.md5']).trim(), createHash('md5').update(gcode).digest('hex').toUpperCase());
    assert.match(strFromU8(zip['Metadata/slice_info.config']), /printer_model_id" value="C12"/);
  } finally {
    cleanup(s);
  }
});

test('a different filament per extruder: the object picks its filament and the footer lists both', async () => {
  const s = await slice(cube(10), await config({}, 'bambu-lab-x1-carbon-0.4', ['generic-pla', 'generic-petg']));
  try {
    assert.equal(s.result.filament.g.length, 2);
    assert.ok(s.result.filament.g[0] > 0);
    assert.equal(s.result.filament.g[1], 0);
  } finally {
    cleanup(s);
  }
});
