import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { otherAccessCode, PublishDropper } from '../../../../scripts/simulators/bambu/faults.js';
import { BambuTestClient, tryConnect, type Message } from '../../../fixtures/bambu-mqtt-client.js';
import { FtpsClient } from '../../../fixtures/ftps-client.js';
import { bambuGcode, gcode3mf, startVirtualBambu, type VirtualBambu } from '../../../fixtures/virtual-bambu.js';

const HMS_VERIFY_FAILED = '0500050000010007';
const hmsKeys = (state: Message) =>
  ((state.hms ?? []) as Message[]).map((h) => h.attr.toString(16).padStart(8, '0') + h.code.toString(16).padStart(8, '0'));

/** Resolves after `ms`: to watch a stream stay quiet for a few push periods. */
const quietFor = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the publish dropper loses the given share, evenly and the same every time', () => {
  const half = new PublishDropper(0.5);
  assert.deepEqual(
    Array.from({ length: 6 }, () => half.next()),
    [false, true, false, true, false, true],
  );
  const all = new PublishDropper(1);
  assert.deepEqual(
    Array.from({ length: 3 }, () => all.next()),
    [true, true, true],
  );
  const third = new PublishDropper(1 / 3);
  assert.equal(Array.from({ length: 9 }, () => third.next()).filter(Boolean).length, 3);
  assert.throws(() => new PublishDropper(0), /drop ratio/);
});

test('a wrong access code is another code of the same form', () => {
  assert.equal(otherAccessCode('12345678'), '23456781');
  assert.equal(otherAccessCode('11111111'), '01111111');
  assert.equal(otherAccessCode('00000000'), '10000000');
});

describe('fault modes of a running printer', () => {
  let vb: VirtualBambu;
  let client: BambuTestClient;

  before(async () => {
    vb = await startVirtualBambu({ model: 'P1S' });
    client = await BambuTestClient.connect(vb, { reconnectPeriod: 100 });
    const ftps = (await FtpsClient.connect({ host: vb.host, port: vb.ftpsPort, ca: vb.caPem, servername: vb.serial })).client;
    await ftps.login('bblp', vb.accessCode);
    await ftps.upload('job.gcode.3mf', gcode3mf(bambuGcode(6, 30)));
    await ftps.quit();
  });

  after(async () => {
    await client.end();
    await vb.stop();
  });

  test('busy: the printer runs a job of its own and refuses project_file until the fault clears', async () => {
    const from = client.mark();
    client.request('pushing', 'pushall');
    await vb.setFault('busy', true);
    const busy = await client.state((s) => s.gcode_state === 'RUNNING', 'a job from the screen', from);
    assert.equal(busy.subtask_name, 'Started on the printer screen');
    const seq = client.request('print', 'project_file', { param: 'Metadata/plate_1.gcode', url: 'ftp:///job.gcode.3mf', use_ams: false });
    const refused = await client.reply('print', 'project_file', seq, from);
    assert.deepEqual([refused.print.result, refused.print.reason], ['fail', 'device is busy']);
    await client.state((s) => s.print_error === 0x05004004, 'the busy error', from);
    await vb.setFault('busy', false);
    await client.state((s) => s.gcode_state === 'FINISH', 'the screen job finished', from);
    const startFrom = client.mark();
    const accepted = client.request('print', 'project_file', {
      param: 'Metadata/plate_1.gcode',
      url: 'file:///sdcard/job.gcode.3mf',
      use_ams: false,
    });
    assert.equal((await client.reply('print', 'project_file', accepted, startFrom)).print.result, 'success');
    const started = await client.state((s) => s.subtask_name === 'job', 'our job', startFrom);
    assert.ok(started.gcode_state === 'PREPARE' || started.gcode_state === 'RUNNING');
    assert.deepEqual([started.subtask_name, started.print_error, started.ams.tray_now], ['job', 0, '254']);
    client.request('print', 'stop', { param: '' });
    await client.state((s) => s.gcode_state === 'FAILED', 'stopped', from);
    client.request('print', 'stop', { param: '' });
    await client.state((s) => s.gcode_state === 'IDLE', 'cleared', from);
  });

  test('dropPublishes: every second publish, replies included, never arrives', async () => {
    const drops: string[] = [];
    const onDrop = (_m: unknown, fault: string) => drops.push(fault);
    vb.printer.on('drop', onDrop);
    await vb.setFault('dropPublishes', true);
    const from = client.mark();
    const seqs = Array.from({ length: 6 }, () => client.request('info', 'get_version'));
    await client.waitFor((_m, i) => i >= from + 8, 'some publishes', from);
    await vb.setFault('dropPublishes', false);
    vb.printer.off('drop', onDrop);
    const answered = seqs.filter((seq) => client.messages.slice(from).some((m) => m.info?.sequence_id === seq));
    assert.ok(answered.length > 0 && answered.length < seqs.length, `answered ${answered.length} of ${seqs.length}`);
    assert.ok(drops.length > 0 && drops.every((d) => d === 'dropPublishes'));
    const pushes = client.messages
      .slice(from)
      .filter((m) => m.print?.command === 'push_status')
      .map((m) => Number(m.print.sequence_id));
    assert.ok(
      pushes.some((n, i) => i > 0 && n - pushes[i - 1] > 1),
      `gaps in the report sequence: ${pushes.join(',')}`,
    );
  });

  test('silentStream: nothing is published until a pushing.start, which brings the full state back', async () => {
    await vb.setFault('silentStream', true);
    const from = client.mark();
    client.request('info', 'get_version');
    await quietFor(600);
    assert.equal(client.messages.length, from, 'six push periods without a message');
    client.request('pushing', 'start');
    const full = await client.report((p) => p.msg === 0, 'the full push after pushing.start', from);
    assert.equal(full.gcode_state, 'IDLE');
    assert.equal(vb.printer.hasFault('silentStream'), false);
    await client.report((p) => p.msg === 1, 'deltas again', from);
  });

  test('developerModeOff: queries answer, control commands vanish and HMS 0500050000010007 appears', async () => {
    const outcomes: string[] = [];
    const onRequest = (r: { outcome: string }) => outcomes.push(r.outcome);
    vb.printer.on('request', onRequest);
    await vb.setFault('developerModeOff', true);
    const from = client.mark();
    const version = client.request('info', 'get_version');
    await client.reply('info', 'get_version', version, from);
    const light = client.request('system', 'ledctrl', { led_node: 'chamber_light', led_mode: 'off' });
    const gcode = client.request('print', 'gcode_line', { param: 'M104 S200' });
    const start = client.request('print', 'project_file', { param: 'Metadata/plate_1.gcode', url: 'ftp:///job.gcode.3mf' });
    client.request('pushing', 'pushall');
    const state = await client.state((s) => hmsKeys(s).includes(HMS_VERIFY_FAILED), 'the verification HMS', from);
    assert.deepEqual([state.gcode_state, state.nozzle_target_temper, state.lights_report[0].mode], ['IDLE', 0, 'on']);
    await quietFor(300);
    for (const [kind, command, seq] of [
      ['system', 'ledctrl', light],
      ['print', 'gcode_line', gcode],
      ['print', 'project_file', start],
    ]) {
      assert.equal(
        client.messages.slice(from).some((m) => m[kind]?.command === command && m[kind]?.sequence_id === seq),
        false,
        `${command} is not answered`,
      );
    }
    assert.deepEqual(outcomes, ['handled', 'dropped', 'dropped', 'dropped', 'handled']);
    vb.printer.off('request', onRequest);
    await vb.setFault('developerModeOff', false);
    const cleared = client.mark();
    await client.state((s) => !hmsKeys(s).includes(HMS_VERIFY_FAILED), 'the HMS cleared', cleared);
    const again = client.request('print', 'gcode_line', { param: 'M104 S0' });
    assert.equal((await client.reply('print', 'gcode_line', again, cleared)).print.result, 'success');
  });

  test('wrongAccessCode: sessions drop, the given code gets CONNACK 5 and FTPS 530, until cleared', async () => {
    const closed = new Promise<void>((r) => client.client.once('close', () => r()));
    await vb.setFault('wrongAccessCode', true);
    await closed;
    assert.equal((await tryConnect(vb)).code, 5);
    assert.deepEqual(await tryConnect(vb, { accessCode: otherAccessCode(vb.accessCode) }), { connected: true }, 'the broker wants another code');
    const { client: ftps } = await FtpsClient.connect({ host: vb.host, port: vb.ftpsPort, ca: vb.caPem, servername: vb.serial });
    await assert.rejects(ftps.login('bblp', vb.accessCode), /PASS refused: 530/);
    await ftps.quit();
    await vb.setFault('wrongAccessCode', false);
    const from = client.mark();
    await client.waitFor(() => true, 'reports after the reconnect', from);
    assert.equal(client.client.connected, true, 'the client reconnected with the code it was given');
  });

  test('a broker restart drops every session; clients and the printer reconnect and the print goes on', async () => {
    const from = client.mark();
    const seq = client.request('print', 'project_file', {
      param: 'Metadata/plate_1.gcode',
      url: 'ftp:///job.gcode.3mf',
      use_ams: false,
      subtask_id: '77',
    });
    await client.reply('print', 'project_file', seq, from);
    await client.state((s) => s.gcode_state === 'RUNNING', 'printing', from);
    const closed = new Promise<void>((r) => client.client.once('close', () => r()));
    await vb.restartBroker();
    await closed;
    const after = client.mark();
    await client.waitFor(() => true, 'reports again', after);
    client.request('pushing', 'pushall');
    const full = await client.report((p) => p.msg === 0, 'a full push after the restart', after);
    assert.deepEqual([full.gcode_state, full.subtask_id], ['RUNNING', '77']);
    client.request('print', 'stop', { param: '' });
    await client.state((s) => s.gcode_state === 'FAILED', 'stopped', after);
  });
});

test('faults can be on from the start', async () => {
  const vb = await startVirtualBambu({ faults: ['wrongAccessCode', 'developerModeOff'] });
  try {
    assert.equal((await tryConnect(vb)).code, 5);
    assert.deepEqual(vb.printer.activeFaults().sort(), ['developerModeOff', 'wrongAccessCode']);
  } finally {
    await vb.stop();
  }
});
