/**
 * The dashboard's mDNS announcement seen by an independent client, Debian's python3-zeroconf,
 * inside a network namespace of the test's own (loopback with multicast, plus a veth pair for an
 * address the A records can name): the announcement with its TXT records, the rename when the
 * name is taken, the announcement again after the box is renamed, another box's slicer service
 * listed, the goodbye on stop. Skips with the reason when the namespace or zeroconf is missing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../../../appliance/common/paths.js';
import { packageVersion } from '../../../appliance/common/version.js';
import {
  createNetNamespace,
  jsonLines,
  NAMESPACE_ADDRESS,
  NAMESPACE_PEER_ADDRESS,
  type JsonLines,
  type NetNamespace,
} from '../../fixtures/net-namespace.js';

const PYTHON = '/usr/bin/python3';
const HTTP = '_http._tcp.local.';
const SLICER = '_pyard-slicer._tcp.local.';
const PEER_SCRIPT = path.join(repoRoot(), 'test/hardware/mdns/zeroconf-peer.py');
const DASHBOARD_SCRIPT = fileURLToPath(new URL('./namespace-dashboard.js', import.meta.url));

function zeroconfMissing(): string | null {
  const probe = spawnSync(PYTHON, ['-c', 'import zeroconf'], { encoding: 'utf8' });
  return probe.status === 0 ? null : 'python3-zeroconf is not installed (npm run setup installs it)';
}

let ns: NetNamespace | null = null;
let skip: string | null = zeroconfMissing();
let peer: { lines: JsonLines; send(command: unknown): void };
let dashboard: { lines: JsonLines; send(command: unknown): void; exited: Promise<unknown> };
let dataDir = '';
let requestId = 0;

const instance = (name: string, type: string) => `${name}.${type}`;
const seen = (event: string, name: string, type: string) => (line: any) => line.event === event && line.name === instance(name, type);

async function dashboardRequest(method: string, urlPath: string, body?: unknown): Promise<any> {
  const id = ++requestId;
  dashboard.send({ cmd: 'request', id, method, path: urlPath, body });
  return dashboard.lines.waitFor(`answer to ${method} ${urlPath}`, (line) => line.event === 'response' && line.id === id);
}

before(async () => {
  if (skip) return;
  const made = await createNetNamespace({ withAddress: true });
  if (typeof made === 'string') {
    skip = made;
    return;
  }
  ns = made;
  const peerChild = ns.run(PYTHON, [PEER_SCRIPT, HTTP, SLICER]);
  peer = { lines: jsonLines(peerChild), send: (c) => peerChild.stdin?.write(`${JSON.stringify(c)}\n`) };
  await peer.lines.waitFor('the zeroconf peer is up', (l) => l.event === 'ready');
  // Another host already answers for the name the box will want.
  peer.send({ cmd: 'register', type: HTTP, name: 'Printyard Lab', port: 9, txt: { path: '/' }, address: NAMESPACE_PEER_ADDRESS });
  await peer.lines.waitFor('the conflicting name is registered', (l) => l.event === 'registered');

  dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-mdns-test-'));
  writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({ box: { name: 'Lab' }, slicer_service: { enabled: true, url: 'http://127.0.0.1:8765' } }),
  );
  const child = ns.run(process.execPath, [DASHBOARD_SCRIPT, dataDir]);
  dashboard = {
    lines: jsonLines(child),
    send: (c) => child.stdin?.write(`${JSON.stringify(c)}\n`),
    exited: new Promise((resolve) => child.once('exit', resolve)),
  };
});

after(async () => {
  await ns?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('the box announces itself, renames on a conflict, follows a rename and says goodbye', async (t) => {
  if (skip) return t.skip(skip);
  const ready = await dashboard.lines.waitFor('the dashboard listens', (l) => l.event === 'ready');
  assert.match(ready.box_id, /^[0-9a-f]{32}$/);

  await t.test('announced as "Printyard Lab (2)": the name was taken', async () => {
    const http = await peer.lines.waitFor('the web UI resolved', seen('added', 'Printyard Lab (2)', HTTP));
    assert.equal(http.port, ready.port);
    assert.deepEqual(http.txt, { path: '/', version: packageVersion(), api: '1', box_id: ready.box_id });
    assert.equal(http.server, `printyard-${ready.box_id.slice(0, 8)}.local.`);
    assert.ok(http.addresses.includes(NAMESPACE_ADDRESS), `the A records name the box's address: ${http.addresses}`);
    const slicer = await peer.lines.waitFor('the slicer service resolved', seen('added', 'Printyard Lab (2)', SLICER));
    assert.equal(slicer.port, 8765);
    assert.deepEqual(slicer.txt, { path: '/', version: packageVersion(), box_id: ready.box_id, box: 'Lab' });
    const info = await dashboardRequest('GET', '/api/system/info');
    assert.equal(info.json.hardware.mdns.running, true);
    assert.match(info.json.hardware.mdns.note, /announced as "Printyard Lab \(2\)"/);
  });

  await t.test('a new box name is announced, the old one withdrawn', async () => {
    const patched = await dashboardRequest('PATCH', '/api/settings', { box: { name: 'Workshop' } });
    assert.equal(patched.status, 200, JSON.stringify(patched.json));
    await peer.lines.waitFor('the old name is gone', seen('removed', 'Printyard Lab (2)', HTTP));
    const http = await peer.lines.waitFor('the new name resolved', seen('added', 'Printyard Workshop', HTTP));
    assert.equal(http.port, ready.port);
    const slicer = await peer.lines.waitFor('the slicer under the new name', seen('added', 'Printyard Workshop', SLICER));
    assert.equal(slicer.txt.box, 'Workshop');
  });

  await t.test("another box's slicer service is listed, this box's own is not", async () => {
    peer.send({
      cmd: 'register',
      type: SLICER,
      name: 'Printyard Attic',
      port: 8766,
      txt: { path: '/', version: '9.9.9', box_id: 'f'.repeat(32), box: 'Attic' },
      address: NAMESPACE_PEER_ADDRESS,
    });
    const listed = await (async () => {
      for (let i = 0; i < 100; i++) {
        const answer = await dashboardRequest('GET', '/api/slicer/remote/discovered');
        if (answer.json.boxes.length > 0) return answer.json;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the other box was never listed');
    })();
    assert.equal(listed.mdns.running, true);
    assert.equal(listed.boxes.length, 1, JSON.stringify(listed.boxes));
    const [other] = listed.boxes;
    assert.equal(other.name, 'Printyard Attic');
    assert.equal(other.box, 'Attic');
    assert.equal(other.box_id, 'f'.repeat(32));
    assert.equal(other.url, `http://${NAMESPACE_PEER_ADDRESS}:8766`);
    assert.equal(other.version, '9.9.9');
  });

  await t.test('switched off: goodbye; on again: announced again', async () => {
    const off = await dashboardRequest('PATCH', '/api/settings', { mdns: { enabled: false } });
    assert.equal(off.status, 200);
    await peer.lines.waitFor('withdrawn when switched off', seen('removed', 'Printyard Workshop', SLICER));
    const info = await dashboardRequest('GET', '/api/system/info');
    assert.deepEqual(info.json.hardware.mdns, { running: false, note: 'switched off (setting mdns.enabled)' });
    const before = peer.lines.all.filter(seen('added', 'Printyard Workshop', HTTP)).length;
    await dashboardRequest('PATCH', '/api/settings', { mdns: { enabled: true } });
    await peer.lines.waitFor('announced again', () => peer.lines.all.filter(seen('added', 'Printyard Workshop', HTTP)).length > before);
  });

  await t.test('stopping sends the goodbye at once (not a TTL running out)', async () => {
    const removedBefore = peer.lines.all.filter(seen('removed', 'Printyard Workshop', HTTP)).length;
    const started = Date.now();
    dashboard.send({ cmd: 'stop' });
    await dashboard.lines.waitFor('the dashboard stopped', (l) => l.event === 'stopped');
    await peer.lines.waitFor(
      'goodbye received',
      () => peer.lines.all.filter(seen('removed', 'Printyard Workshop', HTTP)).length > removedBefore,
      5000,
    );
    await peer.lines.waitFor('goodbye for the slicer', () => peer.lines.all.filter(seen('removed', 'Printyard Workshop', SLICER)).length >= 2, 5000);
    assert.ok(Date.now() - started < 5000);
    await dashboard.exited;
  });
});
