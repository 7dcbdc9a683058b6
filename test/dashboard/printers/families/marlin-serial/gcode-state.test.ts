import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { GcodeReader, scanGcodeFile } from '../../../../../appliance/dashboard/printers/families/marlin-serial/gcode-file.js';
import { GcodeState } from '../../../../../appliance/dashboard/printers/families/marlin-serial/gcode-state.js';

function follow(lines: string[], tools = 1): GcodeState {
  const state = new GcodeState(tools);
  for (const line of lines) state.apply(line);
  return state;
}

test('extrusion: absolute and relative E, G92, G90/G91 switching E too, per tool', () => {
  const state = follow(
    ['G92 E0', 'G1 X1 E2', 'G1 E1.5', 'G91', 'G1 X1 E1', 'G90', 'G1 E4', 'T1', 'M83', 'G1 E3', 'G10', 'G11', 'G92 E100', 'G1 E-1'],
    1,
  );
  assert.deepEqual(state.extrudedMm(), [4, 2]);
  assert.deepEqual(state.modes(), { relativeXYZ: false, relativeE: true, feedrate: null, tool: 1 });
});

test('modes, feed rate and the part fan; a firmware reset keeps what was counted', () => {
  const state = follow(['G1 X5 F1200', 'M106 S128', 'G91', 'M82', 'G1 F3000', 'M106 P1 S255']);
  assert.deepEqual(state.modes(), { relativeXYZ: true, relativeE: false, feedrate: 3000, tool: 0 });
  assert.equal(state.partFan, 50, 'fan 1 is not the part fan');
  state.apply('M107');
  assert.equal(state.partFan, 0);
  state.apply('G1 E5');
  state.firmwareReset();
  state.apply('G1 E2');
  assert.deepEqual(state.extrudedMm(), [7]);
  assert.deepEqual(state.modes(), { relativeXYZ: false, relativeE: false, feedrate: null, tool: 0 });
});

test('a G-code file: commands with the byte offset where their line ends, layer marks, totals', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-gcode-file-'));
  try {
    const file = path.join(dir, 'a.gcode');
    const text = '; header\r\nM110 N0\r\nG28 ; home\r\n\r\n;LAYER_CHANGE\r\nG1 X1 E1\r\n;LAYER:1\r\nG1 X2 E2';
    writeFileSync(file, text);
    const reader = await GcodeReader.open(file);
    const lines = [];
    for (let line = await reader.next(); line !== null; line = await reader.next()) lines.push(line);
    await reader.close();
    assert.deepEqual(lines, [
      { command: 'G28', end: text.indexOf('\r\n\r\n') + 2, layers: 0 },
      { command: 'G1 X1 E1', end: text.indexOf(';LAYER:1'), layers: 1 },
      { command: 'G1 X2 E2', end: text.length, layers: 2 },
    ]);
    assert.deepEqual(await scanGcodeFile(file), { bytes: text.length, lines: 3, layers: 2 });
    const big = path.join(dir, 'big.gcode');
    writeFileSync(big, 'G1 X1 E0.1 ; a line of a long file\n'.repeat(10_000));
    assert.deepEqual(await scanGcodeFile(big), { bytes: 350_000, lines: 10_000, layers: null });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
