import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate } from '../../../../../appliance/slicer/engine/gcode/template/parser.js';
import { TemplateError } from '../../../../../appliance/slicer/engine/gcode/template/types.js';
import { readIni, unescapeIniValue, vendorBundles } from '../../../../fixtures/prusa-vendor-ini.js';

const GCODE_KEYS = new Set([
  'start_gcode',
  'end_gcode',
  'before_layer_gcode',
  'layer_gcode',
  'toolchange_gcode',
  'color_change_gcode',
  'pause_print_gcode',
  'template_custom_gcode',
  'start_filament_gcode',
  'end_filament_gcode',
  'between_objects_gcode',
]);

test('every custom G-code template of every PrusaSlicer vendor bundle parses', () => {
  let parsed = 0;
  const failures: string[] = [];
  for (const bundle of vendorBundles()) {
    for (const [section, keys] of readIni(bundle)) {
      for (const [key, raw] of keys) {
        if (!GCODE_KEYS.has(key)) continue;
        parsed++;
        try {
          parseTemplate(unescapeIniValue(raw));
        } catch (err) {
          failures.push(`${bundle} [${section}] ${key}: ${(err as Error).message}`);
        }
      }
    }
  }
  assert.ok(parsed > 300, `expected hundreds of vendor templates, found ${parsed}`);
  assert.deepEqual(failures, []);
});

test('parsed templates are cached by source', () => {
  const source = '; layer {layer_num+1}\n{if layer_num == 0}M106 S0{endif}\n';
  assert.equal(parseTemplate(source), parseTemplate(source));
  assert.notEqual(parseTemplate(source), parseTemplate(`${source} `));
});

test('syntax errors carry the line of the offending block', () => {
  const cases: Array<[string, number]> = [
    ['G28\n\n{1 +}', 3],
    ['{if true}\n{elsif}\n{endif}', 2],
    ['a\n{"unclosed}', 2],
    ['{layer_z @ 2}', 1],
    ['line 1\n{if x}\nline 3\n{else}\n{else}\n{endif}', 5],
    ['{x =~ "not a regex"}', 1],
    ['{x =~ /(unbalanced/}', 1],
    ['{}', 1],
  ];
  for (const [source, line] of cases) {
    assert.throws(
      () => parseTemplate(source),
      (err: unknown) => err instanceof TemplateError && err.line === line,
      source,
    );
  }
});

test('a line with text next to a control tag keeps its text and newline', () => {
  const program = parseTemplate('{if a}M1{endif}\n  {if b}\n{endif}');
  const texts = JSON.stringify(program.nodes);
  assert.match(texts, /"text":"\\n"/);
  assert.doesNotMatch(texts, /"text":" {2}"/);
});
