import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  amsUpdate,
  developerMode,
  formatErrorCode,
  hmsCodes,
  printerStatus,
  stateDetails,
} from '../../../../../appliance/dashboard/printers/families/bambu-lan/bambu-status.js';

const AT = new Date('2026-11-22T10:00:00Z');
const RUNNING = {
  gcode_state: 'RUNNING',
  subtask_name: 'cube',
  gcode_file: 'cube.gcode.3mf',
  mc_percent: 42,
  mc_remaining_time: 17,
  layer_num: 12,
  total_layer_num: 80,
  gcode_start_time: String(AT.getTime() / 1000 - 600),
  nozzle_temper: 219.6,
  nozzle_target_temper: 220,
  bed_temper: 55,
  bed_target_temper: 55,
  chamber_temper: 31,
  cooling_fan_speed: '15',
  big_fan1_speed: '0',
  big_fan2_speed: '10',
  heatbreak_fan_speed: '15',
  print_error: 0,
};

test('a running print: state, job with remaining minutes as seconds, temperatures, fans as percent', () => {
  const status = printerStatus('p1', RUNNING, AT, { error: null });
  assert.deepEqual(status, {
    printer_id: 'p1',
    state: 'printing',
    online: true,
    temperatures: { tool0: { actual: 219.6, target: 220 }, bed: { actual: 55, target: 55 }, chamber: { actual: 31, target: 0 } },
    job: { file: 'cube', progress: 42, layer: 12, total_layers: 80, elapsed_s: 600, remaining_s: 17 * 60 },
    fans: { part: 100, aux: 0, chamber: 67, heatbreak: 100 },
    error: null,
    updated_at: AT.toISOString(),
  });
});

test('each gcode_state maps to a printer state; FAILED says why', () => {
  const states = ['IDLE', 'PREPARE', 'SLICING', 'RUNNING', 'PAUSE', 'FINISH', 'FAILED'].map(
    (s) => printerStatus('p', { ...RUNNING, gcode_state: s }, AT, { error: null }).state,
  );
  assert.deepEqual(states, ['idle', 'preparing', 'preparing', 'printing', 'paused', 'finished', 'error']);
  const cancelled = printerStatus('p', { ...RUNNING, gcode_state: 'FAILED', print_error: 0x0300400c }, AT, { error: null });
  assert.equal(cancelled.error, 'print failed: printing was cancelled (0300-400C)');
  assert.equal(cancelled.job?.remaining_s, null, 'no remaining time once the print ended');
  assert.equal(printerStatus('p', { ...RUNNING, gcode_state: 'IDLE' }, AT, { error: null }).job, null);
  const watched = printerStatus('p', { gcode_state: 'IDLE' }, AT, { error: 'the printer did not start x within 90 s' });
  assert.deepEqual([watched.state, watched.error], ['error', 'the printer did not start x within 90 s']);
  assert.equal(formatErrorCode(0x07008012), '0700-8012');
});

test('AMS: trays by slot from their ids, presence from tray_exist_bits, colours as #RRGGBBAA, the active tray', () => {
  const print = {
    ams: {
      ams_exist_bits: '3',
      tray_exist_bits: '29',
      tray_now: '5',
      ams: [
        {
          id: '1',
          humidity: '3',
          temp: '24.5',
          tray: [{ id: '1', tray_type: 'ABS', tray_color: '00FF00FF', remain: -1, tray_uuid: '0'.repeat(32) }],
        },
        {
          id: '0',
          humidity: '4',
          temp: '25.0',
          tray: [
            { id: '3', tray_type: 'PLA', tray_color: '0A2989', remain: 40, k: 0.02, tray_uuid: 'AB12' },
            { id: '2', tray_type: 'PETG', tray_color: 'F72323FF', remain: 60 },
            { id: '0', tray_type: 'PLA', tray_color: 'FFFFFFFF', remain: 100 },
          ],
        },
      ],
    },
    vt_tray: { id: '254', tray_type: 'PLA', tray_color: 'FFFFFFFF', remain: -1 },
  };
  const update = amsUpdate('p', print, AT);
  assert.deepEqual(
    update.units.map((u) => u.id),
    [0, 1],
  );
  assert.deepEqual(update.units[0].trays, [
    { slot: 0, present: true, material: 'PLA', color: '#FFFFFFFF', remaining_percent: 100 },
    { slot: 1, present: false, material: null, color: null, remaining_percent: null },
    { slot: 2, present: false, material: null, color: null, remaining_percent: null },
    { slot: 3, present: true, material: 'PLA', color: '#0A2989FF', remaining_percent: 40, k: 0.02, spool_uuid: 'AB12' },
  ]);
  assert.equal(update.units[0].trays[2].present, false, 'tray_exist_bits says slot 2 is empty, whatever stale fields say');
  assert.deepEqual(update.units[1].trays[1], { slot: 1, present: true, material: 'ABS', color: '#00FF00FF', remaining_percent: null });
  assert.deepEqual([update.units[1].humidity, update.units[1].temperature], [3, 24.5]);
  assert.equal(update.active_tray, 5);
  assert.equal(update.external?.material, 'PLA');
  assert.equal(amsUpdate('p', { ams: { tray_now: '254', ams: [] } }, AT).active_tray, 'external');
  assert.equal(amsUpdate('p', { ams: { tray_now: '255', ams: [] } }, AT).active_tray, null);
});

test('Developer Mode: unknown on a P1 until the verification HMS; the X1 `fun` bit', () => {
  assert.equal(developerMode({}), null);
  const refused = { hms: [{ attr: 0x05000500, code: 0x00010007 }] };
  assert.deepEqual(hmsCodes(refused), ['0500050000010007']);
  assert.equal(developerMode(refused), false);
  assert.equal(developerMode({ fun: '3EC18FFF9CFF' }), true);
  assert.equal(developerMode({ fun: '3EC1AFFF9CFF' }), false);
  assert.deepEqual(
    stateDetails({ ...RUNNING, spd_lvl: 3, lights_report: [{ node: 'chamber_light', mode: 'off' }], print_error: 0x05004004 }).print_error,
    {
      code: '0500-4004',
      text: 'the device is busy',
    },
  );
});
