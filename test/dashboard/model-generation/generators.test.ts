/**
 * Every generator gives a closed, consistently oriented, 2-manifold solid of positive volume, for
 * its defaults and for other parameters, and that solid slices into G-code the shared checker
 * accepts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GENERATORS, generatorById } from '../../../appliance/dashboard/model-generation/generators/catalogue.js';
import { gearOutline } from '../../../appliance/dashboard/model-generation/generators/gear.js';
import { withDefaults } from '../../../appliance/dashboard/model-generation/generators/generator.js';
import { acceptedByGcodeCheck, cleanup, config, slice, writeStl } from '../../fixtures/slicing.js';
import { assertSolid, generate, solidFacts } from '../../fixtures/solid-facts.js';

/** Each generator with its defaults and with other parameters that exercise its options. */
const CASES: [string, Record<string, unknown>][] = [
  ['text', {}],
  ['text', { text: 'Bay 4 — 80%', style: 'sign', border_width: 0, hole_diameter: 5 }],
  ['text', { text: 'ABC', style: 'lettering', letter_height: 12 }],
  ['box', {}],
  ['box', { width: 30, depth: 30, height: 15, corner_radius: 0 }],
  ['gear', {}],
  ['gear', { teeth: 9, module: 1.5, bore_diameter: 0 }],
  ['temperature-tower', {}],
  ['temperature-tower', { start_temperature: 240, end_temperature: 255, step: 5, block_height: 8 }],
  ['sketch', {}],
  [
    'sketch',
    {
      source: 'points',
      holes: [
        [
          [5, 5],
          [15, 5],
          [10, 15],
        ],
      ],
      edge: 'round',
      edge_size: 1.5,
    },
  ],
  ['cable-clip', {}],
  ['cable-clip', { cable_count: 4, cable_diameter: 3, mount: 'adhesive' }],
  ['hook', {}],
  ['hook', { screw_count: 1, plate_height: 40, arm_length: 10, thickness: 4, screw_head_diameter: 7 }],
  ['spool-holder', {}],
  ['spool-holder', { bore_diameter: 75, lip: 0, base_size: 120 }],
  ['retraction-test', {}],
  ['retraction-test', { towers: 3, vary: 'speed', bands: 4, tower_diameter: 5 }],
];

describe('model generators give closed, manifold solids', () => {
  test('every generator in the catalogue is tested here (those that take an uploaded file in their own tests)', () => {
    const jsonGenerators = GENERATORS.filter((g) => !g.upload);
    assert.deepEqual([...new Set(CASES.map(([id]) => id))].sort(), jsonGenerators.map((g) => g.id).sort());
  });

  for (const [id, body] of CASES) {
    test(`${id} ${JSON.stringify(body)}`, async () => {
      const model = await generate(id, body);
      assertSolid(model.mesh);
    });
  }

  test('a sign is as wide as its text plus margins and border, and higher by the letters than the plate', async () => {
    const thin = solidFacts((await generate('text', { text: 'I', border_width: 0, margin: 5 })).mesh);
    const wide = solidFacts((await generate('text', { text: 'IIII', border_width: 0, margin: 5 })).mesh);
    assert.ok(wide.size[0] > thin.size[0] + 10, `${wide.size[0]} vs ${thin.size[0]}`);
    assert.ok(Math.abs(thin.size[2] - 5) < 1e-4, `base 3 + letters 2: ${thin.size[2]}`);
    assert.ok(Math.abs(thin.size[1] - (20 + 10)) < 1, `cap height 20 + two margins: ${thin.size[1]}`);
  });

  test('a gear is as wide as its outside diameter, and its outline has one tooth per step of 360°/teeth', async () => {
    const facts = solidFacts((await generate('gear', { teeth: 20, module: 2 })).mesh);
    assert.ok(Math.abs(facts.size[0] - 44) < 0.2, `outside diameter m(z+2) = 44: ${facts.size[0]}`);
    const outline = gearOutline(20, 2, 20);
    const radii = outline.map(([x, y]) => Math.hypot(x, y));
    assert.ok(Math.abs(Math.max(...radii) - 22) < 1e-9 && Math.abs(Math.min(...radii) - 17.5) < 1e-9);
    assert.equal(outline.length % 20, 0);
  });

  test('a temperature tower has one block per step and says where each temperature starts', async () => {
    const model = await generate('temperature-tower', { start_temperature: 220, end_temperature: 200, step: 5, block_height: 10 });
    const facts = solidFacts(model.mesh);
    assert.ok(Math.abs(facts.size[2] - (1 + 5 * 10)) < 1e-4, String(facts.size[2]));
    assert.deepEqual(model.notes?.temperature_changes, [
      { from_z_mm: 1, temperature_c: 220 },
      { from_z_mm: 11, temperature_c: 215 },
      { from_z_mm: 21, temperature_c: 210 },
      { from_z_mm: 31, temperature_c: 205 },
      { from_z_mm: 41, temperature_c: 200 },
    ]);
  });

  test('parameters the schema allows but that do not fit are refused with a reason', () => {
    const box = generatorById('box');
    assert.match(box?.check?.(withDefaults(box.schema, { height: 6, floor: 2, lip_height: 5 })) ?? '', /lip/);
    const gear = generatorById('gear');
    assert.match(gear?.check?.(withDefaults(gear.schema, { teeth: 10, module: 1, bore_diameter: 8 })) ?? '', /bore/);
    const text = generatorById('text');
    assert.match(text?.check?.(withDefaults(text.schema, { text: 'Kanji 漢字' })) ?? '', /no letter/);
  });
});

/** Smaller than the defaults where that keeps the slice short; every generator still slices. */
const SLICE_CASES: [string, Record<string, unknown>][] = [
  ['text', { text: 'Hi', letter_height: 10 }],
  ['box', { width: 30, depth: 24, height: 12, lip_height: 4 }],
  ['gear', { teeth: 12, module: 2, thickness: 4 }],
  ['temperature-tower', { start_temperature: 215, end_temperature: 205, step: 5, block_height: 7 }],
  ['sketch', { edge: 'chamfer', height: 4 }],
  ['cable-clip', { cable_count: 2 }],
  ['hook', { width: 10, plate_height: 40, hook_depth: 8, screw_count: 1 }],
  ['spool-holder', { bore_diameter: 30, length: 10, base_size: 60, lip: 2 }],
  ['retraction-test', { bands: 2, band_height: 3, tower_diameter: 5, tower_distance: 20 }],
];

describe('generated models slice into G-code the checker accepts', () => {
  for (const [id, body] of SLICE_CASES) {
    test(id, async (t) => {
      const model = await generate(id, body);
      const sliced = await slice(model.mesh, await config());
      try {
        assert.ok(sliced.result.layers > 0 && sliced.gcode.includes('G1'), 'G-code with moves');
        await acceptedByGcodeCheck(t, writeStl(sliced.dir, `${id}.stl`, model.mesh), sliced.result.outputPath);
      } finally {
        cleanup(sliced);
      }
    });
  }
});
