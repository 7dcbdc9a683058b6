import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as peerGcode from '../../../appliance/slicer/peers/peer-gcode.js';
import { defaultConfig, type PrintConfig } from '../../../appliance/slicer/profiles/schema.js';

function config(patch: Partial<PrintConfig> = {}): PrintConfig {
  return { ...defaultConfig(), ...patch };
}

describe('peerJob', () => {
  it('derives layer count and top height from the model height, and the footprint centred on the bed', () => {
    const job = peerGcode.peerJob(config({ initial_layer_print_height: 0.2, layer_height: 0.2 }), { min: [-5, 0, 0], max: [15, 30, 25] }, 'box');
    assert.equal(job.context.totalLayerCount, 125);
    assert.equal(job.topZ, 25);
    assert.deepEqual(job.context.firstLayerPrintMin, [100, 95]);
    assert.deepEqual(job.context.firstLayerPrintMax, [120, 125]);
    assert.equal(job.context.inputFilenameBase, 'box');
  });

  it('counts a partial top layer and a part thinner than the first layer', () => {
    const cfg = config({ initial_layer_print_height: 0.3, layer_height: 0.2 });
    assert.equal(peerGcode.peerJob(cfg, { min: [0, 0, 0], max: [1, 1, 1.05] }, 'm').context.totalLayerCount, 5);
    assert.equal(peerGcode.peerJob(cfg, { min: [0, 0, 0], max: [1, 1, 0.1] }, 'm').context.totalLayerCount, 1);
  });
});

describe('peerGcode', () => {
  const bounds = { min: [0, 0, 0], max: [20, 20, 10] };

  it('renders start and end G-code with our template engine and the job values', () => {
    const cfg = config({
      machine_start_gcode:
        'M190 S[bed_temperature_initial_layer_single]\nM109 S{first_layer_temperature[initial_extruder]}\n' +
        'G28\nG1 X{print_bed_min[0] + 3} Y{print_bed_min[1] + 20}\n',
      machine_end_gcode: '{if max_layer_z + 10 < max_print_height}G1 Z{max_layer_z + 10}{endif}\nM84\n',
      nozzle_temperature_initial_layer: [215],
      textured_plate_temp_initial_layer: [60],
    });
    const gcode = peerGcode.peerGcode(cfg, peerGcode.peerJob(cfg, bounds, 'part'));
    assert.equal(gcode.start, 'M190 S60\nM109 S215\nG28\nG1 X3 Y20\n');
    assert.equal(gcode.end, 'G1 Z20\nM84\n');
  });

  it('heats first, as our writer does, when the start G-code does not', () => {
    const cfg = config({ machine_start_gcode: 'G28\n', nozzle_temperature_initial_layer: [215], textured_plate_temp_initial_layer: [60] });
    assert.equal(peerGcode.peerGcode(cfg, peerGcode.peerJob(cfg, bounds, 'part')).start, 'M190 S60\nM109 S215\nG28\n');
    const klipper = config({ machine_start_gcode: 'PRINT_START BED=60\n' });
    assert.equal(peerGcode.peerGcode(klipper, peerGcode.peerJob(klipper, bounds, 'part')).start, 'PRINT_START BED=60\n');
  });

  it('leaves per-layer G-code as a template for PrusaSlicer to run per layer', () => {
    const cfg = config({ layer_change_gcode: ';AFTER_LAYER_CHANGE [layer_num] {layer_z}' });
    assert.equal(peerGcode.peerGcode(cfg, peerGcode.peerJob(cfg, bounds, 'part')).layer, ';AFTER_LAYER_CHANGE [layer_num] {layer_z}');
  });

  it('reports a template error naming the template', () => {
    const cfg = config({ machine_start_gcode: 'G1 Z{no_such_variable + 1}\n' });
    assert.throws(() => peerGcode.peerGcode(cfg, peerGcode.peerJob(cfg, bounds, 'part')), /machine_start_gcode/);
  });
});
