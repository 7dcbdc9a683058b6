/**
 * The calibration pieces sliced with their own `height_changes`, the G-code read back: a
 * temperature tower sets each block's temperature at the block's first layer and holds it there;
 * a retraction test retracts by each band's length (or at each band's speed) in that band.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { HeightChange } from '../../../appliance/slicer/index.js';
import type { PrintConfig } from '../../../appliance/slicer/profiles/schema.js';
import { type GcodeLayer, gcodeLayers } from '../../fixtures/gcode-layers.js';
import { cleanup, config, slice, type Sliced } from '../../fixtures/slicing.js';
import { generate } from '../../fixtures/solid-facts.js';

/** The change of one setting in force from a layer's bottom up, or null below the first. */
function inForce(changes: readonly HeightChange[], setting: HeightChange['setting'], bottom: number): number | null {
  const applying = changes.filter((c) => c.setting === setting && c.z_from <= bottom + 1e-6);
  return applying.at(-1)?.value ?? null;
}

async function sliceWithChanges(id: string, body: Record<string, unknown>, cfg: PrintConfig) {
  const model = await generate(id, body);
  const changes = model.notes?.height_changes as HeightChange[];
  const sliced = await slice(model.mesh, cfg, { heightChanges: changes });
  return { changes, sliced, layers: gcodeLayers(sliced.gcode) };
}

describe('a temperature tower sliced with its changes', () => {
  let cfg: PrintConfig;
  let run: { changes: HeightChange[]; sliced: Sliced; layers: GcodeLayer[] };
  before(async () => {
    cfg = await config();
    run = await sliceWithChanges('temperature-tower', { start_temperature: 215, end_temperature: 205, step: 5, block_height: 7 }, cfg);
  });
  after(() => cleanup(run.sliced));

  test('sets each temperature with M104 at the first layer of its block, and nowhere else', () => {
    assert.deepEqual(
      run.changes.map((c) => [c.z_from, c.value]),
      [
        [1, 215],
        [8, 210],
        [15, 205],
      ],
    );
    // Besides: the profile's own switch to its normal temperature after the first layer, and the end G-code's M104 S0.
    const profileSwitch = cfg.nozzle_temperature[0] === cfg.nozzle_temperature_initial_layer[0] ? [] : [[0.2, [cfg.nozzle_temperature[0]]]];
    const setting = run.layers.slice(0, -1).filter((l) => l.setTemperatures.length > 0);
    assert.deepEqual(
      setting.map((l) => [l.bottom, l.setTemperatures]),
      [...profileSwitch, [1, [215]], [8, [210]], [15, [205]]],
    );
  });

  test("every layer prints at its block's temperature; the base at the profile's", () => {
    assert.ok(run.layers.length > 100, `${run.layers.length} layers`);
    for (const layer of run.layers) {
      const expected =
        inForce(run.changes, 'nozzle_temperature', layer.bottom) ??
        (layer.bottom === 0 ? cfg.nozzle_temperature_initial_layer[0] : cfg.nozzle_temperature[0]);
      assert.equal(layer.temperatureAtFirstExtrusion, expected, `layer from z ${layer.bottom}`);
    }
  });
});

describe('a retraction test sliced with its changes', () => {
  test('retracts by its band’s length on every travel in each band, by the profile’s below the first', async () => {
    const cfg = await config();
    const body = { bands: 3, band_height: 3, tower_diameter: 5, tower_distance: 20, start_length: 0.5, length_step: 0.6 };
    const run = await sliceWithChanges('retraction-test', body, cfg);
    try {
      assert.deepEqual(
        run.changes.map((c) => [c.z_from, c.setting, c.value]),
        [
          [1, 'retraction_length', 0.5],
          [4, 'retraction_length', 1.1],
          [7, 'retraction_length', 1.7],
        ],
      );
      const profileLength = cfg.retraction_length[0];
      assert.ok(![0.5, 1.1, 1.7].includes(profileLength), `the profile's own length (${profileLength}) differs from every band's`);
      // The last layer's block also holds the end G-code's own retractions.
      const layers = run.layers.slice(0, -1);
      for (const layer of layers) {
        const expected = inForce(run.changes, 'retraction_length', layer.bottom) ?? profileLength;
        assert.ok(layer.retractions.length > 0, `layer from z ${layer.bottom} retracts`);
        for (const r of layer.retractions) assert.equal(r.length, expected, `layer from z ${layer.bottom}`);
      }
      // Two towers: each layer above the base travels between them at least once.
      const towerLayers = layers.filter((l) => l.bottom >= 1);
      assert.ok(towerLayers.every((l) => l.retractions.length >= 2));
    } finally {
      cleanup(run.sliced);
    }
  });

  test('retracts and deretracts at its band’s speed when the speed varies', async () => {
    const cfg = await config();
    const body = { vary: 'speed', bands: 2, band_height: 3, tower_diameter: 5, tower_distance: 20, start_speed: 20, speed_step: 25 };
    const run = await sliceWithChanges('retraction-test', body, cfg);
    try {
      const profileFeed = cfg.retraction_speed[0] * 60;
      assert.ok(![1200, 2700].includes(profileFeed));
      for (const layer of run.layers.slice(0, -1)) {
        const speed = inForce(run.changes, 'retraction_speed', layer.bottom);
        const feed = speed === null ? profileFeed : speed * 60;
        for (const r of layer.retractions)
          assert.deepEqual(
            r.feeds,
            r.feeds.map(() => feed),
            `retraction from z ${layer.bottom}`,
          );
        if (speed !== null) assert.ok(layer.deretractionFeeds.length > 0 && layer.deretractionFeeds.every((f) => f === feed));
      }
    } finally {
      cleanup(run.sliced);
    }
  });

  test('under firmware retraction tells the firmware each band’s length at the band’s first layer', async () => {
    const cfg = await config({ use_firmware_retraction: true });
    const body = { bands: 3, band_height: 3, tower_diameter: 5, tower_distance: 20, start_length: 0.5, length_step: 0.6 };
    const run = await sliceWithChanges('retraction-test', body, cfg);
    try {
      const blocks = run.sliced.gcode.split(';LAYER_CHANGE\n').slice(1);
      const told = blocks
        .map((block) => [Number(/^;Z:([\d.]+)/m.exec(block)?.[1]), /^M207 S([\d.]+)/m.exec(block)?.[1]] as const)
        .filter(([, length]) => length !== undefined);
      assert.deepEqual(told, [
        [1.2, '0.5'],
        [4.2, '1.1'],
        [7.2, '1.7'],
      ]);
      assert.ok(
        blocks.slice(5).every((block) => /^G10\b/m.test(block)),
        'the towers retract with G10',
      );
    } finally {
      cleanup(run.sliced);
    }
  });
});
