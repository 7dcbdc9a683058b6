import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTemplate, type TemplateVars } from '../../../../../appliance/slicer/engine/gcode/template/index.js';
import { AppError } from '../../../../../appliance/common/errors.js';

const vars: TemplateVars = {
  layer_height: 0.15,
  layer_num: 4,
  layer_z: 0.6000000000000001,
  current_extruder: 1,
  nozzle_temperature: [210, 240],
  nozzle_diameter: [0.4, 0.6],
  filament_type: ['PLA', 'PETG'],
  print_bed_max: [255, 255],
  printer_notes: 'Keywords:\nPRINTER_VENDOR_PRUSA3D\nPRINTER_MODEL_MINI\n',
  printer_model: 'MINI',
  enable_prime_tower: false,
  wipe: [true, false],
};

const render = (source: string, extra: TemplateVars = {}): string => renderTemplate(source, { ...vars, ...extra }, 'test_gcode');

function renderError(source: string): AppError {
  try {
    render(source);
  } catch (err) {
    assert.ok(err instanceof AppError);
    return err;
  }
  assert.fail(`expected an error for ${JSON.stringify(source)}`);
}

test('plain text passes through unchanged', () => {
  assert.equal(render('G28 ; home\nG1 Z5 F5000\n'), 'G28 ; home\nG1 Z5 F5000\n');
});

test('[name] of a vector gives the current extruder element; booleans print as 1/0', () => {
  assert.equal(render('M104 S[nozzle_temperature] P[nozzle_diameter] [wipe]'), 'M104 S240 P0.6 0');
  assert.equal(render('[nozzle_temperature]', { current_extruder: 7 }), '210');
});

test('{name} of a vector without an index is an error naming the variable', () => {
  const err = renderError('M104 S{nozzle_temperature}');
  assert.equal(err.code, 'ERR_INVALID_SETTING');
  assert.equal(err.status, 400);
  assert.match(err.message, /^test_gcode: "nozzle_temperature" is a vector.*\(line 1\)$/);
});

test('numbers print like PrusaSlicer: integers as integers, floats without trailing zeros', () => {
  assert.equal(render('{layer_z} {layer_height*3} {2*100} {0.1+0.2} {1/3.0} {-0.04} {+0.0} {1e3}'), '0.6 0.45 200 0.3 0.333333 -0.04 0 1000');
  assert.equal(render('{0.5-0.4-0.1} {1234567.0}'), '0 1234570');
});

test('integer settings divide as integers, floats as floats', () => {
  assert.equal(render('{5/2} {5.0/2} {7%3} {7.5%2}'), '2 2.5 1 1.5');
  assert.equal(render('{nozzle_temperature[0]/4} {print_bed_max[0]/2} {layer_num/3}'), '52 127.5 1');
});

test('functions: min, max, int, round, digits, zdigits', () => {
  assert.equal(render('{min(3,4)} {max(1,2.5)} {int(2.7)} {int(-2.7)} {round(2.5)} {round(-2.5)}'), '3 2.5 2 -2 3 -3');
  assert.equal(render('[{digits(3.14159, 4, 2)}] [{digits(3.7, 3)}] {zdigits(7, 3)} {zdigits(-2.5, 5, 1)}'), '[3.14] [  4] 007 -02.5');
});

test('strings: literals, concatenation, comparison and regular expressions', () => {
  assert.equal(render('{"" + layer_num} {"a" + "b"}'), '4 ab');
  assert.equal(render('{if filament_type[1] == "PETG"}petg{endif}{if "a" < "b"} lt{endif}'), 'petg lt');
  assert.equal(render('{if printer_notes=~/.*PRINTER_MODEL_MINI.*/}mini{else}other{endif}'), 'mini');
  assert.equal(render('{if printer_notes!~/.*MK4.*/}not-mk4{endif}'), 'not-mk4');
  assert.equal(render('{if printer_model=~/MIN/}partial{else}whole-string match{endif}'), 'whole-string match');
});

test('{if}/{elsif}/{else} choose one branch and may span lines', () => {
  const source = 'A\n{if layer_num == 1}\none\n{elsif layer_num == 4 and layer_height > 0.1}\nfour\n{else}\nother\n{endif}\nB\n';
  assert.equal(render(source), 'A\nfour\nB\n');
  assert.equal(render(source, { layer_num: 9 }), 'A\nother\nB\n');
  assert.equal(render('S{if layer_height<0.075}100{else}95{endif} ;flow'), 'S95 ;flow');
});

test('a line holding only control tags and whitespace leaves no blank line', () => {
  const source = 'G28\n  {if true}\n  M106 S255\n  {endif}\n{local x = 2}\nG1 X{x}\n';
  assert.equal(render(source), 'G28\n  M106 S255\nG1 X2\n');
});

test('nested conditions with OrcaSlicer-style operators', () => {
  const source = [
    '{if filament_type[current_extruder]=="PETG"}',
    '    {if (nozzle_temperature[current_extruder] >250)||(layer_num >10)}',
    '    M106 P3 S180',
    '    {elsif !(layer_num < 3) && not enable_prime_tower}',
    '    M106 P3 S255',
    '    {endif};chamber fan',
    '{endif}',
    'M106 P2 S100',
  ].join('\n');
  assert.equal(render(source), '    M106 P3 S255\n    ;chamber fan\nM106 P2 S100');
});

test('{local} variables, reassignment, vectors and the ternary operator', () => {
  assert.equal(render('{local w = 0.3*0.5}{local v = (1, 2, 3)}F{12/w*60} {v[2]} {size(v)}'), 'F4800 3 3');
  assert.equal(render('{local n = 1; n = n + 1}{n}'), '2');
  assert.equal(render('{(layer_num > 2 ? "high" : "low")} {layer_num > 2 ? 1.5 : 2}'), 'high 1.5');
});

test('escaped brackets are literal; a bracket that is not a placeholder stays text', () => {
  assert.equal(render('\\[layer_num\\] \\{x\\} [not a var] POLYGON=[[1,2]]'), '[layer_num] {x} [not a var] POLYGON=[[1,2]]');
});

test('short-circuit: the right side of a false "and" is not evaluated', () => {
  assert.equal(render('{if layer_num > 100 and filament_type[9] == "PLA"}x{else}ok{endif}'), 'ok');
});

test('unknown variables are reported with the template name and line', () => {
  const err = renderError('G28\nG1 Z5\nM104 S[first_layer_temprature]');
  assert.equal(err.message, 'test_gcode: unknown variable "first_layer_temprature" (line 3)');
  assert.equal(renderError('\n{no_such_thing + 1}').message, 'test_gcode: unknown variable "no_such_thing" (line 2)');
});

test('syntax errors are reported with the line', () => {
  assert.match(renderError('a\nb\n{if layer_num >}x{endif}').message, /^test_gcode: .*\(line 3\)$/);
  assert.match(renderError('{if true}\nx\n').message, /\{if\} is never closed by \{endif\} \(line 1\)$/);
  assert.match(renderError('x\n{endif}').message, /\{endif\} without a matching \{if\} \(line 2\)$/);
  assert.match(renderError('{layer_num').message, /never closed .*\(line 1\)$/);
  assert.match(renderError('{if true}a{else}b{elsif true}c{endif}').message, /\{elsif\} after \{else\}/);
});

test('type errors: conditions must be booleans, strings do not compare with numbers', () => {
  assert.match(renderError('{if layer_num}x{endif}').message, /condition must be true or false/);
  assert.match(renderError('{if filament_type[0] == 1}x{endif}').message, /cannot compare a string with an integer/);
  assert.match(renderError('{nozzle_temperature[5]}').message, /index 5 is out of range for "nozzle_temperature" \(size 2\)/);
  assert.match(renderError('{layer_num / 0}').message, /division by zero/);
  assert.match(renderError('{global x = 1}').message, /global variables are not supported/);
  assert.match(renderError('{layer_num = 3}').message, /only \{local\} variables can be changed/);
});

test('object prototype names are not variables', () => {
  assert.match(renderError('{constructor}').message, /unknown variable "constructor"/);
  assert.match(renderError('[toString]').message, /unknown variable "toString"/);
});

test('a parsed template is reused: rendering again with other variables gives the new values', () => {
  const source = 'M73 L{layer_num+1}\nM991 S0 P{layer_num}';
  assert.equal(render(source, { layer_num: 0 }), 'M73 L1\nM991 S0 P0');
  assert.equal(render(source, { layer_num: 41 }), 'M73 L42\nM991 S0 P41');
});
