import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildAms } from '../../../../scripts/simulators/bambu/ams.js';
import { MODELS } from '../../../../scripts/simulators/bambu/models.js';
import { PrinterState } from '../../../../scripts/simulators/bambu/printer-state.js';
import { diffReport, fullReport } from '../../../../scripts/simulators/bambu/report.js';
import { mergeReport } from '../../../fixtures/bambu-mqtt-client.js';

const SERIAL = '01P00A000000001';

function reportOf(state: PrinterState, model = MODELS.P1S, developerMode = true) {
  return fullReport({ model, state, developerMode, wifiDbm: -45 });
}

test("a full report has the push_status fields in the firmware's types", () => {
  const state = new PrinterState(buildAms(SERIAL), MODELS.P1S.lights);
  const r = reportOf(state);
  assert.equal(r.gcode_state, 'IDLE');
  assert.equal(r.mc_percent, 0);
  assert.equal(r.mc_remaining_time, 0);
  assert.equal(r.wifi_signal, '-45dBm');
  assert.equal(r.cooling_fan_speed, '0');
  assert.equal(r.gcode_file_prepare_percent, '0');
  assert.deepEqual(r.lights_report, [{ node: 'chamber_light', mode: 'on' }]);
  assert.deepEqual(r.hms, []);
  assert.equal(r.stg_cur, 255);
  assert.equal('fun' in r, false, 'a P1S never sends fun');
  const ams = r.ams as Record<string, any>;
  assert.equal(ams.tray_now, '255');
  assert.equal(ams.ams_exist_bits, '1');
  assert.equal(ams.tray_exist_bits, 'f');
  assert.deepEqual(
    ams.ams.map((u: any) => [u.id, u.tray.map((t: any) => `${t.id}:${t.tray_type}:${t.tray_color}`)]),
    [['0', ['0:PLA:FFFFFFFF', '1:PLA:000000FF', '2:PETG:F72323FF', '3:PLA:0A2989FF']]],
  );
});

test('an X1C sends fun, with bit 0x20000000 set when Developer Mode is off', () => {
  const state = new PrinterState([], MODELS.X1C.lights);
  const on = BigInt(`0x${reportOf(state, MODELS.X1C, true).fun}`);
  const off = BigInt(`0x${reportOf(state, MODELS.X1C, false).fun}`);
  assert.equal(on & 0x20000000n, 0n);
  assert.equal(off & 0x20000000n, 0x20000000n);
  assert.deepEqual(reportOf(state, MODELS.X1C).lights_report, [
    { node: 'chamber_light', mode: 'on' },
    { node: 'work_light', mode: 'on' },
  ]);
});

test('a delta holds only what changed, AMS units and trays reduced to id plus changed fields', () => {
  const state = new PrinterState(buildAms(SERIAL, { units: 2 }), ['chamber_light']);
  const before = reportOf(state);
  assert.equal(diffReport(before, reportOf(state)), undefined, 'nothing changed, nothing to send');
  state.nozzle.target = 220;
  state.lights.set('chamber_light', 'off');
  state.ams[1].trays[2]!.remain = 12;
  state.trayNow = 6;
  const after = reportOf(state);
  assert.deepEqual(diffReport(before, after), {
    nozzle_target_temper: 220,
    lights_report: [{ node: 'chamber_light', mode: 'off' }],
    ams: { ams: [{ id: '1', tray: [{ id: '2', remain: 12 }] }], tray_now: '6' },
  });
  assert.deepEqual(mergeReport(before, diffReport(before, after) as Record<string, unknown>), after, 'merging by id rebuilds the full state');
});

test('lists that change shape are sent whole', () => {
  assert.deepEqual(diffReport({ hms: [] }, { hms: [{ attr: 1, code: 2 }] }), { hms: [{ attr: 1, code: 2 }] });
  assert.deepEqual(
    diffReport(
      { l: [{ id: '0', a: 1 }] },
      {
        l: [
          { id: '0', a: 1 },
          { id: '1', a: 2 },
        ],
      },
    ),
    {
      l: [
        { id: '0', a: 1 },
        { id: '1', a: 2 },
      ],
    },
  );
  assert.deepEqual(diffReport({ a: { b: 1, c: 2 } }, { a: { b: 1, c: 3 } }), { a: { c: 3 } });
});
