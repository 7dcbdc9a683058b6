import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeReport, ReportState } from '../../../../../appliance/dashboard/printers/families/bambu-lan/report-state.js';

const tray = (id: string, type: string, color: string, remain: number) => ({ id, tray_type: type, tray_color: color, remain });

const FULL = {
  command: 'push_status',
  msg: 0,
  sequence_id: '10',
  gcode_state: 'IDLE',
  nozzle_temper: 25,
  lights_report: [{ node: 'chamber_light', mode: 'on' }],
  ams: {
    tray_now: '255',
    ams: [
      { id: '0', humidity: '4', tray: [tray('0', 'PLA', 'FFFFFFFF', 100), tray('1', 'PLA', '000000FF', 85), tray('2', 'PETG', 'F72323FF', 60)] },
      { id: '1', humidity: '3', tray: [tray('0', 'ABS', '00FF00FF', 20)] },
    ],
  },
};

test('a delta merges into what is known: fields it does not name stay', () => {
  const state = new ReportState();
  state.apply(FULL);
  state.apply({ command: 'push_status', msg: 1, sequence_id: '11', nozzle_temper: 31.5 });
  assert.equal(state.print.gcode_state, 'IDLE');
  assert.equal(state.print.nozzle_temper, 31.5);
  assert.equal('command' in state.print || 'sequence_id' in state.print || 'msg' in state.print, false, 'envelope fields are not state');
  assert.equal(state.complete, true);
});

test('AMS units and trays merge by id, not by position', () => {
  const state = new ReportState();
  state.apply(FULL);
  state.apply({
    msg: 1,
    sequence_id: '11',
    ams: {
      ams: [
        { id: '1', tray: [{ id: '0', remain: 19 }] },
        { id: '0', tray: [{ id: '2', remain: 59 }] },
      ],
    },
  });
  const units = (state.print.ams as any).ams;
  assert.deepEqual(
    units.map((u: any) => u.tray.map((t: any) => t.remain)),
    [[100, 85, 59], [19]],
  );
  assert.equal(units[0].tray[2].tray_type, 'PETG', 'the rest of tray 2 stays');
  assert.equal(units[0].humidity, '4');
  assert.equal((state.print.ams as any).tray_now, '255');
});

test('a full report replaces id lists (an emptied tray loses its spool); tray states 9 and 10 clear a tray', () => {
  const emptied = mergeReport(FULL, { ams: { ams: [{ id: '0', tray: [tray('0', 'PLA', 'FFFFFFFF', 100), { id: '1' }] }] } }, true) as any;
  assert.deepEqual(
    emptied.ams.ams.map((u: any) => u.id),
    ['0'],
  );
  assert.deepEqual(emptied.ams.ams[0].tray[1], { id: '1' });
  const removed = mergeReport(FULL, { ams: { ams: [{ id: '0', tray: [{ id: '1', state: 10 }] }] } }, false) as any;
  assert.deepEqual(removed.ams.ams[0].tray[1], { id: '1', state: 10 });
  const kept = mergeReport(FULL, { ams: { ams: [{ id: '0', tray: [{ id: '1', state: 11 }] }] } }, false) as any;
  assert.equal(kept.ams.ams[0].tray[1].tray_type, 'PLA', 'state 11 keeps what is known');
});

test('lists without ids are replaced; nothing is mutated', () => {
  const before = structuredClone(FULL);
  const merged = mergeReport(FULL, { lights_report: [{ node: 'chamber_light', mode: 'off' }], hms: [] }, false);
  assert.deepEqual(merged.lights_report, [{ node: 'chamber_light', mode: 'off' }]);
  assert.deepEqual(FULL, before);
});

test('a jump in sequence numbers is a gap; a restart (smaller number) is not', () => {
  const state = new ReportState();
  assert.equal(state.apply(FULL).gap, false);
  assert.equal(state.apply({ msg: 1, sequence_id: '11' }).gap, false);
  assert.equal(state.apply({ msg: 1, sequence_id: '13' }).gap, true);
  assert.equal(state.apply({ msg: 1, sequence_id: '2' }).gap, false);
  assert.deepEqual(state.apply({ msg: 1, sequence_id: '3', vt_tray: { id: '254' } }), { gap: false, ams: true });
});

test('only a whole state completes the picture', () => {
  const state = new ReportState();
  state.apply({ msg: 1, sequence_id: '1', nozzle_temper: 30, gcode_state: 'RUNNING' });
  assert.equal(state.complete, false, 'a delta that names the state is not the whole state');
  state.apply({ sequence_id: '2', gcode_state: 'IDLE' });
  assert.equal(state.complete, true, 'firmware without `msg` is trusted once it names its state');
  state.reset();
  assert.deepEqual([state.print, state.complete], [{}, false]);
});
