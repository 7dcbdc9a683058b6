/**
 * Our Marlin and Klipper files read the way Moonraker reads them (test/fixtures/moonraker-metadata.ts
 * follows its metadata.py): every field its PrusaSlicer parser fills, by Moonraker's field name,
 * compared with what the slice reports. The object height must be the model's, not the end
 * G-code's lift (Marlin) nor a Z-hop above the top layer (Klipper).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { packageVersion } from '../../../../appliance/common/version.js';
import { box, cube, to3mf } from '../../../fixtures/meshes.js';
import { hasObjects, identifySlicer, moonrakerThumbnails, objectHeight, prusaFooterMetadata } from '../../../fixtures/moonraker-metadata.js';
import { cleanup, config, slice } from '../../../fixtures/slicing.js';

/** Two objects 10 mm tall: on every layer, the top one too, the travel between them hops. */
const plate = to3mf({
  objects: [
    { id: 1, name: 'cube', mesh: cube(10) },
    { id: 2, name: 'block', mesh: box(15, 10, 10) },
  ],
  items: [
    { objectId: 1, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 80, 80, 0] },
    { objectId: 2, transform: [1, 0, 0, 0, 1, 0, 0, 0, 1, 120, 80, 0] },
  ],
});

const metadata = { printerName: 'Generic printer', processName: '0.20mm Standard', filamentNames: ['Generic PLA'] };

for (const [printer, flavour] of [
  ['generic-marlin-0.4', 'Marlin'],
  ['generic-klipper-0.4', 'Klipper'],
] as const) {
  test(`Moonraker reads a ${flavour} file with Z-hop completely, the object height from the layer markers`, async () => {
    const cfg = await config({ z_hop: [0.4], thumbnails: '32x32/PNG, 300x300/PNG' }, printer);
    const s = await slice(plate, cfg, { metadata });
    try {
      const gcode = s.gcode;
      assert.deepEqual(identifySlicer(gcode), { name: 'Printyard', version: packageVersion(), prusaParser: true });
      assert.equal(identifySlicer(gcode, { legacy: true })?.name, 'PrusaSlicer', 'older Moonraker releases identify the compatibility line');
      assert.match(gcode, /\n;BEFORE_LAYER_CHANGE\n;0\.2\n/);
      assert.match(gcode, /\n;AFTER_LAYER_CHANGE\n;10\n/);

      const meta = prusaFooterMetadata(gcode);
      assert.equal(meta.object_height, 10);
      // Without the markers Moonraker falls back to the highest `G1 Z.. F` move: the lift or the hop.
      const unmarked = gcode.replaceAll(';BEFORE_LAYER_CHANGE\n', '');
      assert.ok((objectHeight(unmarked) ?? 0) > 10, `the fallback reads ${objectHeight(unmarked)}`);

      assert.equal(meta.layer_height, 0.2);
      assert.equal(meta.first_layer_height, 0.2);
      assert.equal(meta.layer_count, s.result.layers);
      assert.ok(Math.abs((meta.estimated_time as number) - s.result.estimatedTimeS) <= 1, `${meta.estimated_time} vs ${s.result.estimatedTimeS}`);
      assert.ok(Math.abs((meta.filament_total as number) - s.result.filament.mm[0]) < 0.01);
      assert.ok(Math.abs((meta.filament_weight_total as number) - s.result.filament.g[0]) < 0.01);
      assert.equal(meta.nozzle_diameter, 0.4);
      assert.equal(meta.filament_type, 'PLA');
      assert.equal(meta.filament_name, 'Generic PLA');
      assert.deepEqual(meta.filament_colors, [cfg.filament_colour[0]]);
      assert.equal(meta.first_layer_extr_temp, cfg.nozzle_temperature_initial_layer[0]);
      assert.ok((meta.first_layer_bed_temp as number) > 0);
      assert.equal(meta.filament_change_count, 0);

      const thumbs = moonrakerThumbnails(gcode);
      assert.deepEqual(
        thumbs.map((t) => [t.width, t.height, t.png.width]),
        [
          [32, 32, 32],
          [300, 300, 300],
        ],
      );
      // Marlin files label objects with M486, which Moonraker offers to cancel; Klipper files
      // already define their objects, which Moonraker leaves as they are.
      assert.equal(hasObjects(gcode), flavour === 'Marlin');
    } finally {
      cleanup(s);
    }
  });
}
