import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BambuTestClient, type Message } from '../../../fixtures/bambu-mqtt-client.js';
import { FtpsClient } from '../../../fixtures/ftps-client.js';
import { bambuGcode, gcode3mf, startVirtualBambu, type VirtualBambu } from '../../../fixtures/virtual-bambu.js';

async function upload(vb: VirtualBambu, name: string, data: Uint8Array): Promise<void> {
  const { client } = await FtpsClient.connect({ host: vb.host, port: vb.ftpsPort, ca: vb.caPem, servername: vb.serial });
  await client.login('bblp', vb.accessCode);
  assert.equal((await client.upload(name, data)).code, 226);
  await client.quit();
}

function projectFile(client: BambuTestClient, file: string, extra: Message = {}): string {
  return client.request('print', 'project_file', {
    param: 'Metadata/plate_1.gcode',
    url: `ftp:///${file}`,
    file,
    md5: '',
    bed_type: 'auto',
    timelapse: false,
    bed_leveling: true,
    flow_cali: false,
    vibration_cali: false,
    layer_inspect: false,
    use_ams: true,
    ams_mapping: [2, 1],
    subtask_name: 'cube',
    project_id: '0',
    profile_id: '0',
    task_id: '0',
    subtask_id: '4711',
    ...extra,
  });
}

describe('a P1S', () => {
  let vb: VirtualBambu;
  let client: BambuTestClient;

  before(async () => {
    vb = await startVirtualBambu({ model: 'P1S' });
    client = await BambuTestClient.connect(vb);
  });

  after(async () => {
    await client.end();
    await vb.stop();
  });

  test('answers get_version with its modules and AMS', async () => {
    const from = client.mark();
    const seq = client.request('info', 'get_version');
    const reply = await client.reply('info', 'get_version', seq, from);
    const modules = reply.info.module as Message[];
    assert.deepEqual(
      modules.map((m) => m.name),
      ['ota', 'esp32', 'mc', 'th', 'ams/0'],
    );
    assert.deepEqual([modules[0].product_name, modules[0].sn, modules[0].sw_ver], ['P1S', vb.serial, '01.08.02.00']);
    assert.equal(reply.info.result, 'success');
  });

  test('pushes deltas; a pushall gets the full state', async () => {
    const from = client.mark();
    await client.report((p) => p.msg === 1, 'a delta', from);
    const delta = client.messages.slice(from).find((m) => m.print?.msg === 1)?.print as Message;
    assert.equal('gcode_state' in delta, false, 'an idle P1S does not repeat unchanged fields');
    assert.equal('ams' in delta, false);
    const seq = client.request('pushing', 'pushall', { version: 1, push_target: 1 });
    assert.ok(seq);
    const full = await client.report((p) => p.msg === 0, 'the full push', from);
    for (const key of [
      'gcode_state',
      'mc_percent',
      'mc_remaining_time',
      'layer_num',
      'total_layer_num',
      'nozzle_temper',
      'nozzle_target_temper',
      'bed_temper',
      'bed_target_temper',
      'chamber_temper',
      'spd_lvl',
      'lights_report',
      'ams',
      'hms',
      'print_error',
      'subtask_name',
      'gcode_file',
      'wifi_signal',
    ]) {
      assert.ok(key in full, `full push has ${key}`);
    }
    assert.equal(full.gcode_state, 'IDLE');
    assert.equal(full.ams.ams[0].tray.length, 4);
  });

  test('prints an uploaded 3MF: PREPARE, RUNNING with progress, layers and remaining minutes, then FINISH', async () => {
    await upload(vb, 'cube.gcode.3mf', gcode3mf(bambuGcode(4, 3)));
    const from = client.mark();
    client.request('pushing', 'pushall');
    const seq = projectFile(client, 'cube.gcode.3mf');
    const reply = await client.reply('print', 'project_file', seq, from);
    assert.equal(reply.print.result, 'success');
    const prepare = await client.state((s) => s.gcode_state === 'PREPARE', 'PREPARE', from);
    assert.deepEqual([prepare.subtask_name, prepare.subtask_id, prepare.gcode_file], ['cube', '4711', 'cube.gcode.3mf']);
    const heating = await client.state((s) => s.gcode_state === 'RUNNING' && s.bed_target_temper === 55, 'heating up', from);
    assert.equal(heating.total_layer_num, 4);
    assert.equal(heating.ams.tray_now, '2', 'filament 0 is fed from tray 2 as mapped');
    const middle = await client.state((s) => s.mc_percent >= 25 && s.mc_percent < 100, 'progress', from);
    assert.ok(middle.layer_num >= 1 && middle.layer_num <= 4);
    assert.ok(middle.mc_remaining_time > 0 && middle.mc_remaining_time <= 3, `remaining ${middle.mc_remaining_time} minutes`);
    assert.ok(middle.nozzle_temper > 200);
    const tool = await client.state((s) => s.ams.tray_now === '1', 'the second filament from tray 1', from);
    assert.ok(tool.layer_num >= 3);
    const done = await client.state((s) => s.gcode_state === 'FINISH', 'FINISH', from, 15_000);
    assert.deepEqual([done.mc_percent, done.mc_remaining_time, done.layer_num, done.print_error], [100, 0, 4, 0]);
    const percents = client.views
      .slice(from)
      .map((s) => s.mc_percent)
      .filter((p) => typeof p === 'number');
    assert.deepEqual(
      percents,
      [...percents].sort((a, b) => a - b),
      'progress never goes back',
    );
  });

  test('pause, resume and stop; a stopped print reports FAILED with "cancelled", a second stop goes IDLE', async () => {
    await upload(vb, 'long.gcode.3mf', gcode3mf(bambuGcode(10, 60)));
    const from = client.mark();
    projectFile(client, 'long.gcode.3mf');
    const running = await client.state((s) => s.gcode_state === 'RUNNING' && s.stg_cur === 0, 'printing', from);
    const pauseSeq = client.request('print', 'pause', { param: '' });
    assert.equal((await client.reply('print', 'pause', pauseSeq, from)).print.result, 'success');
    const paused = await client.state((s) => s.gcode_state === 'PAUSE', 'PAUSE', from);
    assert.ok(paused.mc_percent >= running.mc_percent);
    const resumeFrom = client.mark();
    const resumeSeq = client.request('print', 'resume', { param: '' });
    assert.equal((await client.reply('print', 'resume', resumeSeq, from)).print.result, 'success');
    await client.state((s) => s.gcode_state === 'RUNNING', 'RUNNING again', resumeFrom);
    const stopSeq = client.request('print', 'stop', { param: '' });
    assert.equal((await client.reply('print', 'stop', stopSeq, from)).print.result, 'success');
    const failed = await client.state((s) => s.gcode_state === 'FAILED', 'FAILED', from);
    assert.equal(failed.print_error, 0x0300400c);
    assert.equal(failed.mc_remaining_time, 0);
    const again = client.request('print', 'pause', { param: '' });
    assert.deepEqual((await client.reply('print', 'pause', again, from)).print.reason, 'not printing');
    client.request('print', 'stop', { param: '' });
    await client.state((s) => s.gcode_state === 'IDLE' && s.print_error === 0, 'IDLE', from);
  });

  test('print_speed, ledctrl and gcode_line change what the reports say', async () => {
    const from = client.mark();
    const speed = client.request('print', 'print_speed', { param: '3' });
    assert.equal((await client.reply('print', 'print_speed', speed, from)).print.result, 'success');
    await client.state((s) => s.spd_lvl === 3 && s.spd_mag === 124, 'sport speed', from);
    const bad = client.request('print', 'print_speed', { param: '9' });
    assert.equal((await client.reply('print', 'print_speed', bad, from)).print.result, 'fail');
    const light = client.request('system', 'ledctrl', {
      led_node: 'chamber_light',
      led_mode: 'off',
      led_on_time: 500,
      led_off_time: 500,
      loop_times: 0,
      interval_time: 0,
    });
    assert.equal((await client.reply('system', 'ledctrl', light, from)).system.result, 'success');
    await client.state((s) => s.lights_report?.[0]?.mode === 'off', 'light off', from);
    const gcode = client.request('print', 'gcode_line', { param: 'M104 S180\nM140 S40\nM106 P1 S255\n' });
    assert.equal((await client.reply('print', 'gcode_line', gcode, from)).print.result, 'success');
    const hot = await client.state((s) => s.nozzle_target_temper === 180 && s.bed_target_temper === 40, 'new targets', from);
    assert.equal(hot.cooling_fan_speed, '15');
    await client.state((s) => s.nozzle_temper > 100, 'the nozzle heating', from);
    client.request('print', 'gcode_line', { param: 'M104 S0\nM140 S0\nM107' });
    await client.state((s) => s.nozzle_target_temper === 0 && s.cooling_fan_speed === '0', 'heaters off', from);
  });

  test('a start is refused while printing, and a file that is not there fails the start', async () => {
    await upload(vb, 'long2.gcode.3mf', gcode3mf(bambuGcode(10, 60)));
    const from = client.mark();
    projectFile(client, 'long2.gcode.3mf');
    await client.state((s) => s.gcode_state === 'RUNNING', 'printing', from);
    const second = projectFile(client, 'long2.gcode.3mf', { subtask_id: '999' });
    const refused = await client.reply('print', 'project_file', second, from);
    assert.deepEqual([refused.print.result, refused.print.reason], ['fail', 'device is busy']);
    const still = await client.state((s) => s.print_error === 0x05004004, 'the busy error', from);
    assert.deepEqual([still.gcode_state, still.subtask_id], ['RUNNING', '4711']);
    client.request('print', 'stop', { param: '' });
    await client.state((s) => s.gcode_state === 'FAILED', 'stopped', from);
    const missing = projectFile(client, 'nowhere.3mf');
    assert.equal((await client.reply('print', 'project_file', missing, from)).print.result, 'success', 'the printer accepts, then fails');
    const failed = await client.state((s) => s.gcode_state === 'FAILED' && s.print_error === 0x05004003, 'unreadable file', from);
    assert.equal(failed.gcode_file, 'nowhere.3mf');
    const badMapping = projectFile(client, 'long2.gcode.3mf', { ams_mapping: [7] });
    const mappingReply = await client.reply('print', 'project_file', badMapping, from);
    assert.equal(mappingReply.print.result, 'fail');
    assert.match(mappingReply.print.reason, /tray 7/);
  });

  test('junk on the request topic is ignored and the printer keeps answering', async () => {
    const outcomes: string[] = [];
    vb.printer.on('request', (r: { outcome: string }) => outcomes.push(r.outcome));
    client.client.publish(`device/${vb.serial}/request`, 'not json');
    client.client.publish(`device/${vb.serial}/request`, JSON.stringify({ print: { command: 'no_such_command', sequence_id: '1' } }));
    client.client.publish(`device/${vb.serial}/request`, JSON.stringify([1, 2]));
    const from = client.mark();
    const seq = client.request('info', 'get_version');
    await client.reply('info', 'get_version', seq, from);
    assert.deepEqual(outcomes, ['ignored', 'ignored', 'ignored', 'handled']);
  });
});

describe('an X1C', () => {
  let vb: VirtualBambu;
  let client: BambuTestClient;

  before(async () => {
    vb = await startVirtualBambu({ model: 'X1C', ams: { units: 2 } });
    client = await BambuTestClient.connect(vb);
  });

  after(async () => {
    await client.end();
    await vb.stop();
  });

  test('pushes its full state every time', async () => {
    const from = client.mark();
    await client.waitFor((_m, i) => i >= from + 3, 'three pushes', from);
    for (const m of client.messages.slice(from, from + 3)) {
      assert.equal(m.print.msg, 0);
      assert.equal(m.print.gcode_state, 'IDLE');
      assert.equal(m.print.ams.ams.length, 2);
      assert.equal(typeof m.print.fun, 'string');
    }
    const seqs = client.messages.slice(from, from + 3).map((m) => Number(m.print.sequence_id));
    assert.deepEqual(seqs, [seqs[0], seqs[0] + 1, seqs[0] + 2]);
  });

  test('answers get_version as an X1 Carbon with two AMS units', async () => {
    const from = client.mark();
    const seq = client.request('info', 'get_version');
    const modules = (await client.reply('info', 'get_version', seq, from)).info.module as Message[];
    assert.deepEqual(
      modules.map((m) => m.name),
      ['ota', 'rv1126', 'th', 'mc', 'xm', 'ams/0', 'ams/1'],
    );
    assert.equal(modules[0].product_name, 'X1 Carbon');
  });
});
