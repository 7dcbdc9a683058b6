import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import mqtt from 'mqtt';
import { createCertificateAuthority } from '../../../../scripts/simulators/bambu/certs.js';
import { BambuTestClient, clientOptions, tryConnect } from '../../../fixtures/bambu-mqtt-client.js';
import { startVirtualBambu, type VirtualBambu } from '../../../fixtures/virtual-bambu.js';

let vb: VirtualBambu;

before(async () => {
  vb = await startVirtualBambu();
});

after(async () => {
  await vb.stop();
});

test('the printer certificate has the serial as CN and DNS name and is signed by the CA', () => {
  const cert = new X509Certificate(readFileSync(path.join(vb.farm.dir, 'certs', `${vb.serial}.pem`)));
  assert.equal(cert.subject, `CN=${vb.serial}`);
  assert.equal(cert.subjectAltName, `DNS:${vb.serial}`);
  assert.equal(cert.checkIssued(new X509Certificate(vb.caPem)), true);
  assert.equal(cert.ca, false);
});

test('TLS verifies against the CA with SNI = serial; a wrong CA or server name is rejected', async () => {
  assert.deepEqual(await tryConnect(vb), { connected: true });
  const otherDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-other-ca-'));
  const otherCa = (await createCertificateAuthority(otherDir)).pem;
  rmSync(otherDir, { recursive: true, force: true });
  const wrongCa = await tryConnect(vb, { ca: otherCa });
  assert.equal(wrongCa.connected, false);
  assert.match(String(wrongCa.message), /self[- ]signed|unable to (verify|get)/i);
  const wrongName = await tryConnect(vb, { servername: '01P00A999999999' });
  assert.equal(wrongName.connected, false);
  assert.match(String(wrongName.message), /does not match|altnames/i);
});

test('a wrong access code is refused at CONNACK with return code 5 (not authorized)', async () => {
  const refused = await tryConnect(vb, { accessCode: '00000000' });
  assert.equal(refused.connected, false);
  assert.equal(refused.code, 5);
  assert.match(String(refused.message), /Not authorized/);
});

test('bblp may only request: its publishes to report and its subscription to request are not delivered', async () => {
  const client = await BambuTestClient.connect(vb);
  const spy = await mqtt.connectAsync(clientOptions(vb));
  const seenBySpy: string[] = [];
  let spySawReply: () => void = () => {};
  const spyReply = new Promise<void>((resolve) => (spySawReply = resolve));
  spy.on('message', (topic, payload) => {
    seenBySpy.push(topic);
    if (payload.toString().includes('"get_version"')) spySawReply();
  });
  await spy.subscribeAsync([`device/${vb.serial}/request`, 'device/#']);
  const requests: unknown[] = [];
  vb.printer.on('request', (r) => requests.push(r));
  const from = client.mark();
  client.client.publish(`device/${vb.serial}/report`, JSON.stringify({ print: { command: 'push_status', gcode_state: 'FAKE' } }));
  const seq = client.request('info', 'get_version');
  await client.reply('info', 'get_version', seq, from);
  await spyReply;
  assert.equal(
    client.messages.slice(from).some((m) => m.print?.gcode_state === 'FAKE'),
    false,
    'a forged report never reaches subscribers',
  );
  assert.equal(seenBySpy.includes(`device/${vb.serial}/request`), false, 'requests are not readable by bblp');
  assert.ok(seenBySpy.includes(`device/${vb.serial}/report`), 'device/# still delivers the reports');
  assert.equal(seenBySpy.includes(`device/${vb.serial}/request`), false, 'not even through device/#');
  assert.equal(requests.length, 1, 'the printer got the request and nothing else');
  await spy.endAsync(true);
  await client.end();
});

test('one broker serves several printers, each on its own port with its own certificate and code', async () => {
  const { startVirtualBambuFarm } = await import('../../../../scripts/simulators/bambu/farm.js');
  const { testLog } = await import('../../../fixtures/virtual-bambu.js');
  const farm = await startVirtualBambuFarm({
    printers: [
      { serial: '01P00A000000011', accessCode: '11111111' },
      { serial: '00M00A000000012', accessCode: '22222222', model: 'X1C' },
      { serial: '01P00A000000013', accessCode: '33333333' },
    ],
    pushIntervalMs: 100,
    log: testLog(),
  });
  try {
    for (const p of farm.printers) {
      const view = { ...vb, mqttPort: p.mqttPort, serial: p.serial, accessCode: p.accessCode, caPem: farm.caPem } as VirtualBambu;
      const client = await BambuTestClient.connect(view);
      const seq = client.request('info', 'get_version');
      const reply = await client.reply('info', 'get_version', seq);
      assert.equal(reply.info.module[0].sn, p.serial);
      assert.equal(reply.info.module[0].product_name, p.model === 'X1C' ? 'X1 Carbon' : 'P1S');
      await client.end();
    }
    const [a, b] = farm.printers;
    const crossed = { ...vb, mqttPort: a.mqttPort, serial: a.serial, accessCode: b.accessCode, caPem: farm.caPem } as VirtualBambu;
    assert.equal((await tryConnect(crossed)).code, 5, 'a printer accepts only its own code');
  } finally {
    await farm.stop();
  }
});
