import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createLogger } from '../../../appliance/common/logger.js';
import { nameForAttempt } from '../../../appliance/hardware/mdns/announcer.js';
import { buildAnnouncement, hostFor, instanceName, localSlicerPort } from '../../../appliance/dashboard/network/announcement.js';
import { loadBoxId } from '../../../appliance/dashboard/network/box-id.js';
import { interfaceFor } from '../../../appliance/dashboard/network/presence.js';
import { defaultSettings } from '../../../appliance/dashboard/settings/schema.js';
import type { DashboardSettings } from '../../../appliance/dashboard/settings/settings.js';

const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });

function settingsWith(patch: { box?: string; slicer?: Partial<DashboardSettings['slicer_service']> }): DashboardSettings {
  const s = defaultSettings();
  return { ...s, box: { name: patch.box ?? s.box.name }, slicer_service: { ...s.slicer_service, ...patch.slicer } };
}

test('the instance name is "Printyard <box name>", fits a DNS label and has no dots', () => {
  assert.equal(instanceName('Lab'), 'Printyard Lab');
  assert.equal(instanceName('Printyard'), 'Printyard', 'the default name is not doubled');
  assert.equal(instanceName('printyard east'), 'printyard east');
  assert.equal(instanceName('Hall 2.1'), 'Printyard Hall 2-1');
  const long = instanceName('Ü'.repeat(40));
  assert.ok(Buffer.byteLength(nameForAttempt(long, 20)) <= 63, 'with a rename suffix it still fits 63 bytes');
  assert.ok(long.startsWith('Printyard ÜÜ'));
  assert.equal(nameForAttempt('Printyard Lab', 1), 'Printyard Lab');
  assert.equal(nameForAttempt('Printyard Lab', 3), 'Printyard Lab (3)');
});

test("the slicer service is announced only when the integration uses this box's own", () => {
  assert.equal(localSlicerPort(settingsWith({ slicer: { enabled: false } })), null);
  assert.equal(localSlicerPort(settingsWith({ slicer: { enabled: true, url: 'http://127.0.0.1:8765' } })), 8765);
  assert.equal(localSlicerPort(settingsWith({ slicer: { enabled: true, url: 'http://localhost' } })), 80);
  assert.equal(localSlicerPort(settingsWith({ slicer: { enabled: true, url: 'http://[::1]:9000/' } })), 9000);
  assert.equal(
    localSlicerPort(settingsWith({ slicer: { enabled: true, url: 'http://other-box.local:8765' } })),
    null,
    "another box's is not ours to announce",
  );
});

test('the announcement: TXT records without secrets, one host name per box', () => {
  const boxId = '0123456789abcdef0123456789abcdef';
  const set = buildAnnouncement({
    settings: settingsWith({ box: 'Lab', slicer: { enabled: true, url: 'http://127.0.0.1:8765', token: 'secret-token' } }),
    boxId,
    port: 3000,
  });
  assert.equal(set.name, 'Printyard Lab');
  assert.deepEqual(
    set.services.map((s) => [s.type, s.port, s.host]),
    [
      ['http', 3000, 'printyard-01234567.local'],
      ['pyard-slicer', 8765, 'printyard-01234567.local'],
    ],
  );
  assert.deepEqual(Object.keys(set.services[0].txt), ['path', 'version', 'api', 'box_id']);
  assert.equal(set.services[1].txt.box, 'Lab');
  assert.doesNotMatch(JSON.stringify(set), /secret-token/);
  assert.equal(hostFor(boxId), 'printyard-01234567.local');
});

test('the interface follows the address the dashboard listens on', () => {
  assert.equal(interfaceFor('0.0.0.0'), undefined);
  assert.equal(interfaceFor('::'), undefined);
  assert.equal(interfaceFor('127.0.0.1'), '127.0.0.1');
  assert.equal(interfaceFor('::1'), '127.0.0.1');
  assert.equal(interfaceFor('192.168.1.20'), '192.168.1.20');
});

test('the box id is made once and kept; a damaged file is moved aside', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-box-id-'));
  try {
    const first = await loadBoxId(dir, quiet);
    assert.match(first, /^[0-9a-f]{32}$/);
    assert.equal(await loadBoxId(dir, quiet), first);
    assert.equal(readFileSync(path.join(dir, 'box-id'), 'utf8'), `${first}\n`);
    writeFileSync(path.join(dir, 'box-id'), 'not an id');
    const second = await loadBoxId(dir, quiet);
    assert.notEqual(second, first);
    assert.equal(readdirSync(dir).filter((f) => f.startsWith('box-id.corrupt-')).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
