/**
 * Which variables hold integers. JavaScript numbers cannot tell 255 from 255.0, but the macro
 * language must: PrusaSlicer divides integer settings as integers (`{first_layer_temperature[0]/3}`
 * is 73 for 220) and float settings as floats (`{print_bed_max[0]/2}` is 127.5 for 255).
 * Integer-typed settings of the schema plus the integer names of the placeholder contract.
 */
import { SETTINGS } from '../../../profiles/schema.js';

const CONTRACT_INTEGERS = [
  // PrusaSlicer and OrcaSlicer aliases of integer settings
  'first_layer_temperature',
  'temperature',
  'bed_temperature',
  'first_layer_bed_temperature',
  'bed_temperature_initial_layer',
  'bed_temperature_initial_layer_single',
  'chamber_temperature',
  'perimeters',
  // job context
  'initial_extruder',
  'initial_tool',
  'initial_no_support_extruder',
  'current_extruder',
  'next_extruder',
  'previous_extruder',
  'layer_num',
  'total_layer_count',
  'total_toolchanges',
  'year',
  'month',
  'day',
  'hour',
  'minute',
  'second',
];

const INTEGER_VARIABLES: ReadonlySet<string> = new Set([
  ...Object.entries(SETTINGS)
    .filter(([, def]) => def.type === 'int')
    .map(([key]) => key),
  ...CONTRACT_INTEGERS,
]);

export function isIntegerVariable(name: string): boolean {
  return INTEGER_VARIABLES.has(name);
}
