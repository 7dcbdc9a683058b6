import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PrintConfig } from '../../../appliance/slicer/profiles/schema.js';
import { curaSettings } from '../../../appliance/slicer/peers/curaengine.js';
import { formatPrusaIni, prusaSettings } from '../../../appliance/slicer/peers/prusaslicer.js';
import { PEER_GCODE, benchConfig, type PeerGcode, type PeerSettings } from '../../fixtures/bench-config.js';

const prusa = (patch: Partial<PrintConfig> = {}, gcode: Partial<PeerGcode> = {}): PeerSettings =>
  prusaSettings(benchConfig(patch), { ...PEER_GCODE, ...gcode }).settings;

describe('PrusaSlicer settings', () => {
  it("passes line widths in mm: our percentages are of the nozzle, PrusaSlicer's of the layer height", () => {
    const settings = prusa({ line_width: '110%', outer_wall_line_width: 0.42, initial_layer_line_width: '125%' });
    assert.equal(settings.extrusion_width, 0.44);
    assert.equal(settings.external_perimeter_extrusion_width, 0.42);
    assert.equal(settings.first_layer_extrusion_width, 0.5);
  });

  it('takes the bed temperature of the selected plate and the filament retraction override', () => {
    const settings = prusa({
      curr_bed_type: 'Cool Plate',
      cool_plate_temp: [40],
      cool_plate_temp_initial_layer: [45],
      retraction_length: [0.8],
      filament_retraction_length: [1.5],
    });
    assert.equal(settings.bed_temperature, 40);
    assert.equal(settings.first_layer_bed_temperature, 45);
    assert.equal(settings.retract_length, 1.5);
  });

  it('maps patterns, seam and wall order onto PrusaSlicer names', () => {
    const settings = prusa({
      sparse_infill_pattern: 'zig-zag',
      top_surface_pattern: 'monotonicline',
      seam_position: 'back',
      wall_sequence: 'outer wall/inner wall',
      wall_generator: 'classic',
    });
    assert.equal(settings.fill_pattern, 'rectilinear');
    assert.equal(settings.top_fill_pattern, 'monotonic');
    assert.equal(settings.seam_position, 'rear');
    assert.equal(settings.external_perimeters_first, 1);
    assert.equal(settings.perimeter_generator, 'classic');
    assert.equal(prusa({ wall_generator: 'arachne' }).perimeter_generator, 'arachne', 'PrusaSlicer 2.5 has Arachne too');
  });

  it('adds the extruder reset PrusaSlicer demands for relative E, once', () => {
    assert.equal(prusa({ use_relative_e_distances: true }, { layer: '' }).layer_gcode, 'G92 E0');
    assert.equal(prusa({ use_relative_e_distances: true }, { layer: ';L [layer_num]' }).layer_gcode, ';L [layer_num]\nG92 E0');
    assert.equal(prusa({ use_relative_e_distances: true }, { layer: ';L [layer_num]\nG92 E0' }).layer_gcode, ';L [layer_num]\nG92 E0');
    assert.equal(prusa({ use_relative_e_distances: false }, { layer: '' }).layer_gcode, '');
  });

  it('refuses a value it has no translation for instead of writing "undefined"', () => {
    const odd = { ...benchConfig(), sparse_infill_pattern: 'honeycomb' } as unknown as PrintConfig;
    assert.throws(() => prusaSettings(odd, PEER_GCODE), /sparse_infill_pattern "honeycomb" has no PrusaSlicer 2\.5 equivalent/);
    assert.throws(() => curaSettings(odd, PEER_GCODE), /sparse_infill_pattern "honeycomb" has no CuraEngine 4\.13 equivalent/);
  });

  it('writes multi-line G-code escaped and per-filament strings quoted', () => {
    const ini = formatPrusaIni({ start_gcode: 'G28\nG1 Z5', start_filament_gcode: '; "PLA"\n', layer_height: 0.2 });
    assert.match(ini, /^start_gcode = G28\\nG1 Z5$/m);
    assert.match(ini, /^start_filament_gcode = "; \\"PLA\\"\\n"$/m);
    assert.match(ini, /^layer_height = 0.2$/m);
  });
});
