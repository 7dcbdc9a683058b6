/**
 * The update endpoints against a real `rauc service` (test/fixtures/rauc.ts: a private D-Bus,
 * file-backed slots, the Pi's tryboot backend): the slots as RAUC has them, a bundle installed
 * into the other slot with its progress over the WebSocket, the refusals (another CA, a damaged
 * bundle, another board, a downgrade, a second update while one waits for its reboot), the
 * reboot, and the new slot booted and committed by `rauc status mark-good`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { liveFeature, notificationsFeature, systemUpdateFeature } from '../../../appliance/dashboard/features.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../fixtures/dashboard.js';
import { makeBundle, makeDevCa, makeRootfs, raucInstallMissing, startRaucSystem, type RaucSystem } from '../../fixtures/rauc.js';
import { connect, wsUrl, type TestClient } from '../live/ws-client.js';

const RUNNING = '1.0.0';
const admin = { token: TEST_TOKENS.admin };

describe('the update endpoints against rauc service', { skip: raucInstallMissing() }, () => {
  let system: RaucSystem;
  let dash: DashboardFixture;
  let client: TestClient;
  let rebootMarker: string;
  const bundles: Record<string, string> = {};

  before(async () => {
    // The Pi's slot layout (boot partitions as child slots, listed first by name): the update
    // must still target the other root slot.
    system = await startRaucSystem({ bootSlots: true });
    rebootMarker = path.join(system.dir, 'rebooted');
    const bundle = (name: string, version: string, options: { board?: 'rpi'; ca?: ReturnType<typeof makeDevCa> } = {}) => {
      bundles[name] = makeBundle({
        version,
        format: 'plain',
        ca: options.ca ?? system.ca,
        rootfs: makeRootfs(system.dir, `${name}-${version}`),
        out: path.join(system.dir, `${name}.raucb`),
        ...(options.board ? { board: options.board } : {}),
      });
    };
    bundle('upgrade', '1.1.0');
    bundle('older', '0.9.0');
    bundle('rpi', '1.1.0', { board: 'rpi' });
    bundle('foreign', '1.1.0', { ca: makeDevCa(path.join(system.dir, 'other-ca')) });
    dash = await startDashboardFixture({
      features: [liveFeature, systemUpdateFeature],
      createAuthenticator: testAuthenticator,
      services: {
        updates: {
          rauc: { conf: system.conf, env: system.env },
          rebootCommand: ['touch', rebootMarker],
          runningVersion: RUNNING,
        },
      },
      logLevel: 'error',
    });
    client = connect(wsUrl(dash.url));
    await client.opened;
    client.send({ type: 'auth', token: TEST_TOKENS.view });
    await client.nextOfType('hello');
  });

  after(async () => {
    client?.ws.close();
    await dash?.cleanup();
    await system?.stop();
  });

  const upload = (name: string, query = '', token = admin.token) =>
    dash.request('post', `/api/system/update${query}`, {
      token,
      body: readFileSync(bundles[name] as string),
      headers: { 'content-type': 'application/octet-stream' },
    });

  test('GET shows the booted slot, both slots and the compatible, for a view user', async () => {
    const r = await dash.request('get', '/api/system/update', { token: TEST_TOKENS.view });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.available, true);
    assert.equal(r.json.compatible, 'printyard-amd64');
    assert.equal(r.json.booted, 'A');
    assert.equal(r.json.running_version, RUNNING);
    assert.deepEqual(
      r.json.slots.map((slot: { name: string; bootname: string; state: string; version: string | null }) => [
        slot.name,
        slot.bootname,
        slot.state,
        slot.version,
      ]),
      [
        ['rootfs.0', 'A', 'booted', null],
        ['rootfs.1', 'B', 'inactive', null],
      ],
    );
    assert.equal(r.json.reboot_required, false);
    assert.equal(r.json.busy, null);
    assert.equal(r.json.last, null);
  });

  test('uploading needs an admin', async () => {
    expectError(await upload('upgrade', '', TEST_TOKENS.print), 403, 'ERR_FORBIDDEN');
  });

  test('a bundle signed by another CA is refused before anything is written', async () => {
    expectError(await upload('foreign'), 422, 'ERR_UPDATE_SIGNATURE', /not trusted.*unable to get local issuer/);
    assert.equal(
      readFileSync(system.slots.b).every((byte) => byte === 0),
      true,
      'slot B untouched',
    );
  });

  test('a damaged bundle is refused', async () => {
    const damaged = Buffer.from(readFileSync(bundles.upgrade as string));
    damaged.writeUInt32BE(0xdeadbeef, 20_000);
    const r = await dash.request('post', '/api/system/update', { ...admin, body: damaged, headers: { 'content-type': 'application/octet-stream' } });
    expectError(r, 422, 'ERR_UPDATE_SIGNATURE', /signature verification failed/);
    const junk = await dash.request('post', '/api/system/update', { ...admin, body: Buffer.from('not a bundle at all'.repeat(500)) });
    expectError(junk, 422, 'ERR_UPDATE_INVALID_BUNDLE');
    expectError(await dash.request('post', '/api/system/update', admin), 400, 'ERR_UPDATE_INVALID_BUNDLE', /empty/);
  });

  test('a bundle for another board is refused with both compatibles named', async () => {
    const r = await upload('rpi');
    expectError(r, 422, 'ERR_UPDATE_INCOMPATIBLE', /printyard-rpi.*printyard-amd64/);
    assert.deepEqual(r.json.details, { bundle: 'printyard-rpi', system: 'printyard-amd64' });
  });

  test('a downgrade is refused unless allowed', async () => {
    expectError(await upload('older'), 409, 'ERR_UPDATE_DOWNGRADE', /0\.9\.0 is older than the running 1\.0\.0.*allow_downgrade/);
    const state = await dash.request('get', '/api/system/update', admin);
    assert.equal(state.json.busy, null, 'a refusal leaves nothing running');
    assert.equal(state.json.last, null, 'nor a last update');
  });

  test('an upgrade installs into slot B with its progress on the WebSocket; a second one waits for the reboot', async () => {
    const accepted = await upload('upgrade');
    assert.equal(accepted.status, 202, accepted.text);
    assert.deepEqual({ ...accepted.json, build: typeof accepted.json.build }, { version: '1.1.0', build: 'string', compatible: 'printyard-amd64' });
    const seen: number[] = [];
    const done = await client.nextMatching(
      'system.update',
      (payload) => {
        if (payload.phase === 'installing') seen.push(payload.percent);
        return payload.phase === 'installed' || payload.phase === 'failed';
      },
      'the end of the install',
      30_000,
    );
    assert.equal(done.payload.phase, 'installed', JSON.stringify(done.payload));
    assert.ok(seen.length >= 3 && seen.includes(0) && Math.max(...seen) === 100, `progress ${seen.join(' ')}`);
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      seen,
      'the percentage only grows',
    );

    const state = (await dash.request('get', '/api/system/update', admin)).json;
    assert.equal(state.reboot_required, true);
    const slotB = state.slots.find((slot: { name: string }) => slot.name === 'rootfs.1');
    assert.equal(slotB.version, '1.1.0');
    assert.equal(slotB.boot_status, 'good');
    assert.equal(state.last.result, 'installed');
    assert.equal(state.last.slot, 'rootfs.1');
    assert.equal(state.last.version, '1.1.0');
    // The bundle's image is in slot B, and the bundle is gone from the data directory.
    const image = readFileSync(path.join(system.dir, 'rootfs-upgrade-1.1.0.ext4'));
    assert.deepEqual(readFileSync(system.slots.b).subarray(0, image.length), image);
    assert.equal(existsSync(path.join(dash.dataDir, 'updates', 'incoming.raucb')), false);
    assert.match(readFileSync(path.join(system.bootDir, 'autoboot.txt'), 'utf8'), /\[tryboot\]\nboot_partition=3/);

    expectError(await upload('upgrade'), 409, 'ERR_UPDATE_PENDING', /1\.1\.0 is installed in rootfs\.1 and waits for a reboot/);
  });

  test('the reboot runs the reboot command; the new slot boots and the health gate commits it', async () => {
    expectError(await dash.request('post', '/api/system/update/reboot', { token: TEST_TOKENS.print }), 403, 'ERR_FORBIDDEN');
    const r = await dash.request('post', '/api/system/update/reboot', admin);
    assert.equal(r.status, 202, r.text);
    assert.ok(statSync(rebootMarker).isFile());

    await system.boot('B');
    const booted = (await dash.request('get', '/api/system/update', admin)).json;
    assert.equal(booted.booted, 'B');
    assert.equal(booted.running_version, '1.1.0', "the booted slot's version, from RAUC");
    assert.equal(booted.reboot_required, false);
    const good = spawnSync('rauc', ['status', 'mark-good'], { env: system.env, encoding: 'utf8' });
    assert.equal(good.status, 0, good.stderr);
    assert.match(readFileSync(path.join(system.bootDir, 'autoboot.txt'), 'utf8'), /^\[all\]\ntryboot_a_b=1\nboot_partition=3\n/);
    expectError(await dash.request('post', '/api/system/update/reboot', admin), 409, 'ERR_UPDATE_NO_REBOOT_NEEDED');
  });
});

describe('an update that fails its checks after the reboot', { skip: raucInstallMissing() }, () => {
  let system: RaucSystem;
  let bundle: string;
  const dashboards: DashboardFixture[] = [];

  before(async () => {
    system = await startRaucSystem();
    bundle = makeBundle({
      version: '1.1.0',
      format: 'plain',
      ca: system.ca,
      rootfs: makeRootfs(system.dir, 'failing-1.1.0'),
      out: path.join(system.dir, 'failing.raucb'),
    });
  });

  after(async () => {
    for (const dash of dashboards) await dash.cleanup();
    await system?.stop();
  });

  /** The dashboard of the slot that boots: its version and the data partition both slots share. */
  const startAs = async (version: string, dataDir?: string) => {
    const dash = await startDashboardFixture({
      features: [systemUpdateFeature, notificationsFeature],
      createAuthenticator: testAuthenticator,
      version,
      ...(dataDir === undefined ? {} : { dataDir }),
      services: { updates: { rauc: { conf: system.conf, env: system.env }, rebootCommand: ['true'], runningVersion: version } },
      logLevel: 'error',
    });
    dashboards.push(dash);
    return dash;
  };
  const lastUpdate = async (dash: DashboardFixture) => (await dash.request('get', '/api/system/update', admin)).json.last;

  test('the new slot runs as "updated"; after its health gate fails the old version says "rolled back" and notifies', async () => {
    const old = await startAs('1.0.0');
    const accepted = await old.request('post', '/api/system/update', { ...admin, body: readFileSync(bundle) });
    assert.equal(accepted.status, 202, accepted.text);
    const deadline = Date.now() + 30_000;
    while ((await lastUpdate(old))?.result !== 'installed') {
      assert.ok(Date.now() < deadline, 'the install ends');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await old.stop();

    await system.boot('B');
    const trial = await startAs('1.1.0', old.dataDir);
    assert.equal((await lastUpdate(trial)).result, 'updated');
    await trial.stop();
    // The health gate of 1.1.0 fails: it marks its slot bad and reboots into the committed one.
    const bad = spawnSync('rauc', ['status', 'mark-bad'], { env: system.env, encoding: 'utf8' });
    assert.equal(bad.status, 0, bad.stderr);
    await system.boot('A');

    const back = await startAs('1.0.0', old.dataDir);
    const state = (await back.request('get', '/api/system/update', admin)).json;
    assert.equal(state.booted, 'A');
    assert.equal(state.reboot_required, false);
    assert.equal(state.last.result, 'rolled_back');
    assert.match(state.last.error, /1\.1\.0 did not pass its checks after the reboot: slot B is marked bad and the box is back on slot A/);
    const notes = await back.request('get', '/api/notifications', admin);
    assert.equal(notes.status, 200, notes.text);
    const note = notes.json.items.find((n: { kind: string }) => n.kind === 'system.update_rolled_back');
    assert.ok(note, JSON.stringify(notes.json.items));
    assert.equal(note.title, 'Update to 1.1.0 rolled back');
    await back.stop();
    const again = await startAs('1.0.0', old.dataDir);
    assert.equal((await again.request('get', '/api/notifications', admin)).json.items.length, 1, 'said once, not at every start');
  });
});

describe('without RAUC', () => {
  let dash: DashboardFixture;

  before(async () => {
    dash = await startDashboardFixture({
      features: [systemUpdateFeature],
      createAuthenticator: testAuthenticator,
      services: { updates: { rauc: { command: '/nonexistent/rauc' } } },
      logLevel: 'error',
    });
  });

  after(async () => dash?.cleanup());

  test('GET says RAUC is not available and why; an upload is refused with 503', async () => {
    const r = await dash.request('get', '/api/system/update', admin);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.available, false);
    assert.match(r.json.problem, /ENOENT/);
    assert.deepEqual(r.json.slots, []);
    expectError(await dash.request('post', '/api/system/update', { ...admin, body: Buffer.from('x') }), 503, 'ERR_UPDATE_UNAVAILABLE');
  });
});
