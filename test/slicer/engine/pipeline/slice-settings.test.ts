/** Settings that act on the printer or the model rather than on the toolpaths. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { box, cube, solidFromBoxes, to3mf, twoObjects } from '../../../fixtures/meshes.js';
import { cleanup, config, extrusions, slice } from '../../../fixtures/slicing.js';

test('pressure advance is set for the filament, in each dialect', async () => {
  const marlin = await slice(cube(5), await config({ enable_pressure_advance: [true], pressure_advance: [0.045] }));
  const klipper = await slice(cube(5), await config({ enable_pressure_advance: [true], pressure_advance: [0.045] }, 'generic-klipper-0.4'));
  try {
    assert.match(marlin.gcode, /^M900 K0\.045/m);
    assert.match(klipper.gcode, /^SET_PRESSURE_ADVANCE ADVANCE=0\.045$/m);
    const off = await slice(cube(5), await config());
    assert.doesNotMatch(off.gcode, /^M900/m);
    cleanup(off);
  } finally {
    cleanup(marlin);
    cleanup(klipper);
  }
});

test('filament start and end G-code frame the print', async () => {
  const s = await slice(
    cube(5),
    await config({ filament_start_gcode: ['; start of [filament_type]'], filament_end_gcode: ['; end of {filament_type[0]}'] }),
  );
  try {
    const start = s.gcode.indexOf('; start of PLA');
    const end = s.gcode.indexOf('; end of PLA');
    assert.ok(start > 0 && start < s.gcode.indexOf(';LAYER_CHANGE'));
    assert.ok(end > s.gcode.lastIndexOf(';LAYER_CHANGE'));
  } finally {
    cleanup(s);
  }
});

test('the Z offset moves every layer, and line numbers are added when asked', async () => {
  const s = await slice(cube(5), await config({ z_offset: 0.1, gcode_add_line_number: true }));
  try {
    assert.match(s.gcode, /^N\d+ G1 Z0\.3 F\d+$/m, 'first layer at 0.2 + 0.1');
    const commands = s.gcode.split('\n').filter((l) => /^(N\d+ )?[GMT]\d/.test(l));
    const numbered = commands.filter((l) => /^N\d+ /.test(l));
    assert.ok(numbered.length > commands.length * 0.9, `${numbered.length} of ${commands.length}`);
  } finally {
    cleanup(s);
  }
});

test('filament shrinkage scales the part in XY', async () => {
  const width = (g: string) => {
    const xs = extrusions(g)
      .filter((m) => m.layer === 5 && m.type === 'External perimeter')
      .map((m) => m.x);
    return Math.max(...xs) - Math.min(...xs);
  };
  const plain = await slice(cube(20), await config());
  const shrunk = await slice(cube(20), await config({ filament_shrink: [95] }));
  try {
    assert.ok(Math.abs(width(shrunk.gcode) / width(plain.gcode) - (20 / 0.95 - 0.42) / (20 - 0.42)) < 0.005);
  } finally {
    cleanup(plain);
    cleanup(shrunk);
  }
});

test('spiral vase is refused rather than printed as a normal part', async () => {
  await assert.rejects(slice(cube(5), await config({ spiral_mode: true })), { code: 'ERR_INVALID_SETTING', message: /spiral_mode/ });
});

test('a model on the excluded bed area is refused', async () => {
  const file = to3mf({
    objects: [{ id: 1, name: 'corner', mesh: cube(10) }],
    items: [{ objectId: 1, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 2, 0] }],
  });
  await assert.rejects(slice(file, await config({ bed_exclude_area: '0x0,30x0,30x30,0x30' })), {
    code: 'ERR_MODEL_OUTSIDE_BED',
    message: /excluded/,
  });
});

test('support standing on the part gets a dense bottom interface when asked', async () => {
  const shelf = solidFromBoxes([
    { min: [0, 0, 0], max: [30, 10, 5] },
    { min: [0, 0, 5], max: [10, 10, 15] },
    { min: [0, 0, 15], max: [40, 10, 20] },
  ]);
  const s = await slice(shelf, await config({ enable_support: true, support_interface_bottom_layers: 2, support_bottom_z_distance: 0.2 }));
  try {
    // Layers 26..27 (z 5.4, 5.6) stand on the step's top at z 5 (one layer of gap).
    const low = extrusions(s.gcode).filter((m) => m.layer >= 25 && m.layer <= 27 && m.x > 100 && m.x < 120);
    assert.ok(
      low.some((m) => m.type === 'Support material interface'),
      'dense over the step',
    );
  } finally {
    cleanup(s);
  }
});

test('objects on different AMS slots change filament with the profile change G-code', async () => {
  const [a, b] = twoObjects();
  const file = to3mf({
    objects: [
      { id: 1, name: 'a', mesh: a },
      { id: 2, name: 'b', mesh: b },
    ],
    items: [{ objectId: 1 }, { objectId: 2 }],
    extruders: { style: 'bambu', byObject: { 1: 1, 2: 2 } },
  });
  const s = await slice(file, await config({}, 'bambu-lab-x1-carbon-0.4', ['generic-pla', 'generic-petg']));
  try {
    assert.ok(s.result.filament.g[0] > 0 && s.result.filament.g[1] > 0, 'both filaments used');
  } finally {
    cleanup(s);
  }
});

test('a long thin box prints without anything outside its footprint', async () => {
  const s = await slice(box(60, 4, 3), await config({ brim_type: 'no_brim', skirt_loops: 0 }));
  try {
    const xs = extrusions(s.gcode)
      .filter((m) => m.layer >= 0)
      .map((m) => m.x);
    assert.ok(Math.max(...xs) - Math.min(...xs) <= 60 + 1e-6);
  } finally {
    cleanup(s);
  }
});
