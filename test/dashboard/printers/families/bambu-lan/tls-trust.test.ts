import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { PermanentConnectError } from '../../../../../appliance/dashboard/printers/driver.js';
import { startVirtualBambu, type VirtualBambu } from '../../../../fixtures/virtual-bambu.js';
import { driverFor, PRINTER_ID } from './driver-harness.js';
import { project, TWO_FILAMENTS } from './project-file.js';

const TOFU = { ca: undefined };
let dataDir: string;
let first: VirtualBambu;
let firstCa: string;
let firstFingerprint: string;
let firstRunning = true;

function pins(): any {
  return JSON.parse(readFileSync(path.join(dataDir, 'bambu-tls-pins.json'), 'utf8')).printers[PRINTER_ID];
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  assert.fail('expected the connection to be refused');
}

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-bambu-pins-'));
  first = await startVirtualBambu();
  firstCa = first.caPem;
  firstFingerprint = new X509Certificate(readFileSync(path.join(first.farm.dir, 'certs', `${first.serial}.pem`))).fingerprint256;
});

after(async () => {
  if (firstRunning) await first.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('without a CA the first certificate is pinned (MQTT and FTPS), and the same one is accepted again', async () => {
  const run = driverFor(first, { connection: TOFU, dataDir });
  try {
    await run.driver.connect();
    assert.equal(pins().serial, first.serial);
    assert.equal(pins().mqtt.sha256, firstFingerprint);
    assert.equal(pins().mqtt.subject, first.serial);
    await run.driver.upload({ stream: Readable.from([Buffer.from(project(TWO_FILAMENTS))]) }, 'pinned.gcode.3mf');
    assert.equal(pins().ftps.sha256, firstFingerprint, 'the FTPS service is pinned on its first use too');
    await run.driver.disconnect();
    await run.driver.connect();
    assert.equal(run.driver.status().online, true);
  } finally {
    await run.stop();
  }
});

test('a printer restarted with a new CA and certificate is refused, permanently, saying what changed', async () => {
  await first.stop();
  firstRunning = false;
  const second = await startVirtualBambu({ serial: first.serial });
  const run = driverFor(second, { connection: TOFU, dataDir });
  try {
    const refused = await refusal(run.driver.connect());
    assert.ok(refused instanceof PermanentConnectError);
    assert.match(refused.message, new RegExp(`TLS certificate of printer ${first.serial} \\(MQTT at 127\\.0\\.0\\.1:${second.mqttPort}\\) changed`));
    assert.ok(refused.message.includes(firstFingerprint), 'names the pinned fingerprint');
    assert.match(refused.message, /delete and re-add the printer/);
    assert.equal(pins().mqtt.sha256, firstFingerprint, 'the pin stays');

    const withOldCa = driverFor(second, { connection: { ca: firstCa }, dataDir });
    const unverified = await refusal(withOldCa.driver.connect());
    assert.ok(unverified instanceof PermanentConnectError);
    assert.match(unverified.message, /does not verify against the configured CA/);
    await withOldCa.stop();

    const wrongSni = driverFor(second, { connection: { ca: second.caPem, serial: '01P00A000000000' }, dataDir });
    const misnamed = await refusal(wrongSni.driver.connect());
    assert.ok(misnamed instanceof PermanentConnectError);
    assert.match(misnamed.message, /does not verify against the configured CA for serial 01P00A000000000/);
    await wrongSni.stop();

    const otherSerial = driverFor(second, { connection: { ...TOFU, serial: '01P00A000000000' }, dataDir });
    const wrongName = await refusal(otherSerial.driver.connect());
    assert.ok(wrongName instanceof PermanentConnectError);
    assert.match(wrongName.message, new RegExp(`certificate for "${first.serial}", not for printer 01P00A000000000`));
    await otherSerial.stop();

    const trusted = driverFor(second, { connection: { ca: second.caPem }, dataDir });
    await trusted.driver.connect();
    assert.equal(trusted.driver.status().online, true, 'configuring the CA trusts the new printer');
    await trusted.stop();
  } finally {
    await run.stop();
    await second.stop();
  }
});
