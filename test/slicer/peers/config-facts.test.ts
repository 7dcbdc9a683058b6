import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configFacts, round, translate } from '../../../appliance/slicer/peers/config-facts.js';
import { benchConfig } from '../../fixtures/bench-config.js';

describe('configFacts', () => {
  it('resolves line widths against the nozzle, 0 meaning the default width', () => {
    const facts = configFacts(benchConfig({ nozzle_diameter: [0.6], line_width: '110%', outer_wall_line_width: 0.62, top_surface_line_width: 0 }));
    assert.equal(facts.width.default, 0.66);
    assert.equal(facts.width.outer, 0.62);
    assert.equal(facts.width.top, 0.66);
  });

  it('takes the bounding box of the printable area, wherever its origin', () => {
    const facts = configFacts(
      benchConfig({
        printable_area: [
          [-110, -110],
          [110, -110],
          [110, 110],
          [-110, 110],
        ],
        printable_height: 300,
      }),
    );
    assert.deepEqual(
      [facts.bed.minX, facts.bed.minY, facts.bed.maxX, facts.bed.maxY, facts.bed.width, facts.bed.depth, facts.bed.height],
      [-110, -110, 110, 110, 220, 220, 300],
    );
  });

  it('reads the bed temperatures of the selected plate', () => {
    const facts = configFacts(
      benchConfig({ curr_bed_type: 'High Temp Plate', hot_plate_temp: [65], hot_plate_temp_initial_layer: [70], textured_plate_temp: [55] }),
    );
    assert.equal(facts.temps.bed, 65);
    assert.equal(facts.temps.bedFirst, 70);
  });

  it('raises shell layers to the minimum thickness, and keeps zero layers at zero', () => {
    const facts = configFacts(
      benchConfig({ layer_height: 0.2, top_shell_layers: 3, top_shell_thickness: 0.8, bottom_shell_layers: 0, bottom_shell_thickness: 1 }),
    );
    assert.equal(facts.topLayers, 4);
    assert.equal(facts.bottomLayers, 0);
    assert.equal(configFacts(benchConfig({ layer_height: 0.2, top_shell_layers: 3, top_shell_thickness: 0.6 })).topLayers, 3);
  });

  it('lets filament overrides replace printer retraction, -1 keeping the printer value', () => {
    const overridden = configFacts(benchConfig({ retraction_length: [0.8], filament_retraction_length: [0], z_hop: [0.4], filament_z_hop: [-1] }));
    assert.equal(overridden.retraction.length, 0);
    assert.equal(overridden.retraction.zHop, 0.4);
    assert.equal(configFacts(benchConfig({ retraction_speed: [35], deretraction_speed: [0] })).retraction.deretractSpeed, 35);
  });
});

describe('translate and round', () => {
  it('translates known values and names the key of an unknown one', () => {
    assert.equal(translate({ back: 'rear' }, 'seam_position', 'back', 'PrusaSlicer'), 'rear');
    assert.throws(() => translate({ back: 'rear' }, 'seam_position', 'front', 'PrusaSlicer'), /seam_position "front" has no PrusaSlicer equivalent/);
  });

  it('rounds to a number of decimals', () => {
    assert.equal(round(0.1 + 0.2), 0.3);
    assert.equal(round(2.345678, 2), 2.35);
  });
});
