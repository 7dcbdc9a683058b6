import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FirmwareInfo } from '../../../../../appliance/dashboard/printers/families/marlin-serial/firmware-info.js';
import {
  actionCommands,
  offeredActions,
  type ActionContext,
} from '../../../../../appliance/dashboard/printers/families/marlin-serial/marlin-actions.js';

const twoTools: FirmwareInfo = {
  name: 'Marlin',
  machineType: 'IDEX',
  extruders: 2,
  uuid: null,
  capabilities: { TOGGLE_LIGHTS: true, CHAMBER_TEMPERATURE: true },
};
const idle: ActionContext = { firmware: twoTools, printing: false, filamentCommands: null };

function status(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { status?: number }).status;
  }
  return undefined;
}

test('offered actions follow the firmware: light with Cap:TOGGLE_LIGHTS, tool change with several extruders', () => {
  assert.deepEqual(offeredActions(idle), ['home', 'jog', 'temperature', 'fan', 'light', 'speed', 'tool_change', 'load_filament', 'unload_filament']);
  assert.deepEqual(offeredActions({ firmware: { ...twoTools, extruders: 1, capabilities: {} }, printing: false, filamentCommands: false }), [
    'home',
    'jog',
    'temperature',
    'fan',
    'speed',
  ]);
  assert.deepEqual(
    offeredActions({ firmware: null, printing: false, filamentCommands: null }),
    ['home', 'jog', 'temperature', 'fan', 'speed', 'tool_change', 'load_filament', 'unload_filament'],
    'before the first connect',
  );
});

test('actions become G-code', () => {
  assert.deepEqual(actionCommands('home', { axes: ['x', 'z'] }, idle), ['G28 X Z']);
  assert.deepEqual(actionCommands('home', {}, idle), ['G28']);
  assert.deepEqual(actionCommands('jog', { z: 0.1 }, idle), ['G91', 'G1 Z0.1 F600', 'G90']);
  assert.deepEqual(actionCommands('jog', { x: -5, y: 2.25, feedrate: 1200 }, idle), ['G91', 'G1 X-5 Y2.25 F1200', 'G90']);
  assert.deepEqual(actionCommands('temperature', { heater: 'tool1', target: 215.4 }, idle), ['M104 T1 S215']);
  assert.deepEqual(actionCommands('temperature', { heater: 'bed', target: 60 }, idle), ['M140 S60']);
  assert.deepEqual(actionCommands('temperature', { heater: 'chamber', target: 40 }, idle), ['M141 S40']);
  assert.deepEqual(actionCommands('fan', { fan: 'part', percent: 40 }, idle), ['M106 S102']);
  assert.deepEqual(actionCommands('fan', { fan: 'part', percent: 0 }, idle), ['M107']);
  assert.deepEqual(actionCommands('light', { on: true }, idle), ['M355 S1']);
  assert.deepEqual(actionCommands('speed', { percent: 85 }, idle), ['M220 S85']);
  assert.deepEqual(actionCommands('tool_change', { tool: 1 }, idle), ['T1']);
  assert.deepEqual(actionCommands('load_filament', {}, idle), ['M701']);
  assert.deepEqual(actionCommands('unload_filament', { tool: 1 }, idle), ['M702 T1']);
});

test('422 for what the printer lacks, 409 for what a print forbids, 400 for bad parameters', () => {
  assert.equal(
    status(() => actionCommands('tool_change', { tool: 2 }, idle)),
    422,
  );
  assert.equal(
    status(() => actionCommands('fan', { fan: 'chamber', percent: 10 }, idle)),
    422,
  );
  assert.equal(
    status(() => actionCommands('light', { light: 'work', on: true }, idle)),
    422,
  );
  assert.equal(
    status(() => actionCommands('load_filament', {}, { ...idle, filamentCommands: false })),
    422,
  );
  const printing = { ...idle, printing: true };
  for (const [action, params] of [
    ['home', {}],
    ['jog', { x: 1 }],
    ['tool_change', { tool: 0 }],
    ['unload_filament', {}],
  ] as const) {
    assert.equal(
      status(() => actionCommands(action, params, printing)),
      409,
      action,
    );
  }
  assert.deepEqual(
    actionCommands('temperature', { heater: 'tool0', target: 205 }, printing),
    ['M104 T0 S205'],
    'temperatures may change during a print',
  );
  assert.equal(
    status(() => actionCommands('tool_change', { tool: 9 }, printing)),
    422,
    'never comes before not now',
  );
  assert.equal(
    status(() => actionCommands('jog', {}, idle)),
    400,
  );
  assert.equal(
    status(() => actionCommands('speed', { percent: 5 }, idle)),
    400,
  );
});
