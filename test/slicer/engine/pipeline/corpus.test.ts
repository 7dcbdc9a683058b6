/**
 * The acceptance check of the engine: every model of the shared corpus, sliced for a 0.4 mm
 * Marlin printer at 0.2 mm layers, must pass the shared G-code checker (walls, first layer, top
 * skins, overflow, layers) at 15 % infill, and reproduce the mesh's volume (0.95..1.08) at 100 %.
 *
 * Test settings, besides the generic Marlin profile:
 * - a 0.3 mm first layer (Cura's default): the checker's own reference slice of bearing.stl, an
 *   open mesh, is empty below z = 0.15 mm, so a first layer cut at 0.1 mm could not be compared;
 * - a brim only when asked for: the checker counts a brim that touches the part as overflow;
 * - for the volume check only, no purge line, skirt or brim, which are material the mesh does not
 *   contain (the purge line alone is most of the screw's volume), and none of the deliberate
 *   under-extrusion of the profile (the filament's 0.98 flow ratio, the first layer's elephant-foot
 *   shrink): the checker compares nominal extruded volume with the mesh.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadModel } from '../../../../appliance/slicer/engine/mesh/load.js';
import { merge, toBinaryStl } from '../../../fixtures/meshes.js';
import { CORPUS_DIR, GCODE_CHECKER, needsShared } from '../../../fixtures/shared.js';
import { cleanup, config, gcodeCheck, slice, tempDir } from '../../../fixtures/slicing.js';

const missing = needsShared(CORPUS_DIR, GCODE_CHECKER);
const models = missing
  ? []
  : readdirSync(CORPUS_DIR)
      .filter((f) => /\.(stl|3mf)$/i.test(f))
      .sort();
const BED = '--bed=0,0,220,220';

/** The checker reads STL: a 3MF is handed over as the mesh our loader reads from it. */
function asStl(dir: string, file: string, bytes: Uint8Array): string {
  if (file.toLowerCase().endsWith('.stl')) return join(CORPUS_DIR, file);
  const model = loadModel(bytes, file);
  const path = join(dir, file.replace(/\.3mf$/i, '.stl'));
  writeFileSync(path, toBinaryStl(merge(model.objects.map((o) => o.mesh))));
  return path;
}

test('the corpus is there', { skip: missing }, () => {
  assert.ok(models.length >= 8, `models in ${CORPUS_DIR}: ${models.join(', ')}`);
});

for (const file of models) {
  test(`corpus: ${file} passes the G-code check at 15 % and the volume check at 100 %`, async () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, file)));
    const dir = tempDir();
    const stl = asStl(dir, file, bytes);
    const sparse = await slice(bytes, await config({ sparse_infill_density: 15, initial_layer_print_height: 0.3, brim_type: 'no_brim' }));
    try {
      const check = gcodeCheck(stl, sparse.result.outputPath, [BED]);
      assert.ok(check.pass, `15 %: ${check.raw}`);
    } finally {
      cleanup(sparse);
    }
    const solid = await slice(
      bytes,
      await config({
        sparse_infill_density: 100,
        initial_layer_print_height: 0.3,
        skirt_loops: 0,
        brim_type: 'no_brim',
        machine_start_gcode: 'G28 ; home all axes\n',
        filament_flow_ratio: [1],
        elefant_foot_compensation: 0,
      }),
    );
    try {
      const check = gcodeCheck(stl, solid.result.outputPath, [BED, '--volume=0.95,1.08']);
      assert.ok(check.pass, `100 %: ${check.raw}`);
    } finally {
      cleanup(solid);
      cleanup({ dir });
    }
  });
}
