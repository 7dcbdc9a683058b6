import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BambuTestClient, type Message } from '../../../fixtures/bambu-mqtt-client.js';
import { startVirtualBambu, type VirtualBambu } from '../../../fixtures/virtual-bambu.js';

function change(client: BambuTestClient, target: number, tarTemp = 240): string {
  return client.request('print', 'ams_change_filament', {
    target,
    ams_id: target === 255 ? 0 : Math.floor(target / 4),
    slot_id: target === 255 ? 255 : target % 4,
    curr_temp: 25,
    tar_temp: tarTemp,
  });
}

describe('ams_change_filament on a P1S', () => {
  let vb: VirtualBambu;
  let client: BambuTestClient;

  before(async () => {
    vb = await startVirtualBambu({
      model: 'P1S',
      ams: { trays: [{ type: 'PLA', color: 'FFFFFF' }, { type: 'PLA', color: '000000' }, { type: 'PETG', color: 'F72323' }, null] },
    });
    client = await BambuTestClient.connect(vb);
    const from = client.mark();
    client.request('pushing', 'pushall', { version: 1, push_target: 1 });
    await client.report((p) => p.msg === 0, 'the full push', from);
  });

  after(async () => {
    await client.end();
    await vb.stop();
  });

  test('load: success, the nozzle heats, stages 7 → 24, tray_tar then tray_now turn to the target, ams_status back to idle', async () => {
    const from = client.mark();
    const seq = change(client, 2);
    const reply = await client.reply('print', 'ams_change_filament', seq, from);
    assert.deepEqual([reply.print.result, reply.print.target], ['success', 2]);
    const busy = await client.state((s) => s.ams_status === 0x100 && s.ams.tray_tar === '2', 'changing filament', from);
    assert.equal(busy.nozzle_target_temper, 240);
    const done = await client.state((s) => s.ams.tray_now === '2' && s.ams_status === 0, 'tray 2 loaded', from);
    assert.deepEqual([done.stg_cur, done.nozzle_target_temper, done.gcode_state], [255, 0, 'IDLE']);
    const stages = client.messages
      .slice(from)
      .map((m) => (m.print as Message | undefined)?.stg_cur)
      .filter((s) => s !== undefined);
    assert.ok(stages.includes(24), `the loading stage was reported: ${stages.join(',')}`);
  });

  test('unload: tray_now 255 after the unloading stage', async () => {
    const from = client.mark();
    const seq = change(client, 255, 240);
    assert.equal((await client.reply('print', 'ams_change_filament', seq, from)).print.result, 'success');
    await client.state((s) => s.stg_cur === 22, 'unloading', from);
    const done = await client.state((s) => s.ams.tray_now === '255' && s.ams_status === 0, 'unloaded', from);
    assert.equal(done.ams.tray_pre, '2');
  });

  test('refused with a reason: an empty or missing tray, a second change at once, and while printing', async () => {
    const from = client.mark();
    const empty = await client.reply('print', 'ams_change_filament', change(client, 3), from);
    assert.deepEqual([empty.print.result, empty.print.reason], ['fail', 'tray 3 is empty']);
    const missing = await client.reply('print', 'ams_change_filament', change(client, 9), from);
    assert.deepEqual([missing.print.result, missing.print.reason], ['fail', 'there is no tray 9']);
    change(client, 254, 220);
    const second = await client.reply('print', 'ams_change_filament', change(client, 1), from);
    assert.deepEqual([second.print.result, second.print.reason], ['fail', 'a filament change is already in progress']);
    await client.state((s) => s.ams.tray_now === '254' && s.ams_status === 0, 'external spool loaded', from);
    await vb.setFault('busy', true);
    await client.state((s) => s.gcode_state === 'RUNNING', 'printing', from);
    const printing = await client.reply('print', 'ams_change_filament', change(client, 1), from);
    assert.equal(printing.print.result, 'fail');
    assert.match(printing.print.reason, /busy/);
    assert.equal(vb.printer.state.trayNow, 254, 'nothing changed');
    await vb.setFault('busy', false);
  });
});
