/**
 * The boot side of updates (image/rauc/): the Pi's tryboot backend as RAUC drives it (a trial
 * set by an install, a power cut during the trial, a commit by mark-good, a failed install), the
 * health gate marking the booted slot good or bad through a real `rauc service` and rebooting
 * on failure, and the twin's GRUB slot choice passing GRUB's own script check.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RAUC_DIR, raucInstallMissing, startRaucSystem, type RaucSystem } from '../fixtures/rauc.js';

describe('the tryboot backend', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-tryboot-'));
    env = {
      ...process.env,
      PRINTYARD_TRYBOOT_DIR: dir,
      PRINTYARD_TRYBOOT_RUN_DIR: path.join(dir, 'run'),
      PRINTYARD_REBOOT_PARAM: path.join(dir, 'run', 'reboot-param'),
      PRINTYARD_TRYBOOT_FLAG: path.join(dir, 'flag'),
    };
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  const backend = (...args: string[]) => {
    const r = spawnSync(path.join(RAUC_DIR, 'tryboot-backend'), args, { env, encoding: 'utf8' });
    return { status: r.status, out: r.stdout.trim(), err: r.stderr };
  };
  const autoboot = () => readFileSync(path.join(dir, 'autoboot.txt'), 'utf8');
  /** A reboot: /run is gone; the firmware's flag is set only when the reboot asked for tryboot. */
  const reboot = () => {
    const tryboot =
      existsSync(env.PRINTYARD_REBOOT_PARAM as string) && readFileSync(env.PRINTYARD_REBOOT_PARAM as string, 'utf8').trim() === '0 tryboot';
    rmSync(env.PRINTYARD_TRYBOOT_RUN_DIR as string, { recursive: true, force: true });
    writeFileSync(env.PRINTYARD_TRYBOOT_FLAG as string, Buffer.from([0, 0, 0, tryboot ? 1 : 0]));
    return tryboot;
  };

  test('an install sets a one-shot trial; a power cut during it comes back on the committed slot', () => {
    writeFileSync(path.join(dir, 'autoboot.txt'), '[all]\ntryboot_a_b=1\nboot_partition=2\n');
    assert.equal(backend('get-primary').out, 'A');
    // RAUC: mark the target bad, write it, make it primary.
    assert.equal(backend('set-state', 'B', 'bad').status, 0);
    assert.equal(backend('set-primary', 'B').status, 0);
    assert.equal(backend('get-primary').out, 'B');
    assert.equal(backend('get-state', 'B').out, 'good');
    assert.equal(autoboot(), '[all]\ntryboot_a_b=1\nboot_partition=2\n[tryboot]\nboot_partition=3\n');
    assert.equal(reboot(), true, 'the reboot asks the firmware for tryboot');
    // Booted B on trial; the power goes before the health gate marks it good.
    assert.equal(reboot(), false, 'the next boot is a normal one');
    assert.equal(backend('get-primary').out, 'A');
    assert.match(autoboot(), /^\[all\]\ntryboot_a_b=1\nboot_partition=2\n/);
  });

  test('mark-good during the trial commits the slot; mark-bad of a pending trial drops it', () => {
    assert.equal(backend('set-primary', 'B').status, 0);
    assert.equal(reboot(), true);
    assert.equal(backend('get-primary').out, 'A', 'during the trial the committed slot is still the fallback');
    assert.equal(backend('set-state', 'B', 'good').status, 0);
    assert.equal(autoboot(), '[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n');
    assert.equal(reboot(), false);
    assert.equal(backend('get-primary').out, 'B');

    assert.equal(backend('set-primary', 'A').status, 0);
    assert.equal(backend('get-primary').out, 'A');
    assert.equal(backend('set-state', 'A', 'bad').status, 0);
    assert.equal(backend('get-primary').out, 'B', 'a failed install into A leaves B');
    assert.equal(reboot(), false, 'and no tryboot');
  });

  test('unknown bootnames and states are errors', () => {
    assert.match(backend('get-state', 'C').err, /unknown bootname 'C'/);
    assert.notEqual(backend('set-state', 'A', 'fine').status, 0);
    assert.notEqual(backend('frobnicate').status, 0);
  });
});

test("the twin's GRUB slot choice passes grub-script-check", {
  skip: existsSync('/usr/bin/grub-script-check') ? false : 'no grub-script-check',
}, () => {
  const r = spawnSync('grub-script-check', [path.join(RAUC_DIR, 'grub.cfg')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

describe('the health gate', { skip: raucInstallMissing() }, () => {
  let system: RaucSystem;
  let server: Server;
  let healthUrl: string;
  let gateDir: string;

  before(async () => {
    system = await startRaucSystem();
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, service: 'printyard-dashboard', version: '1.1.0' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    healthUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health`;
    gateDir = path.join(system.dir, 'gate');
    mkdirSync(path.join(gateDir, 'state', 'dashboard'), { recursive: true });
    writeFileSync(path.join(gateDir, 'state', 'dashboard', 'queue.json'), '{"jobs":[]}');
  });

  after(async () => {
    server?.close();
    await system?.stop();
  });

  /** Runs the gate with the test's units (`true`/`false` as systemctl), health URL, state and rauc. */
  const runGate = (options: { version: string; unitsActive: boolean }) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      writeFileSync(path.join(gateDir, 'package.json'), JSON.stringify({ version: options.version }));
      const child = spawn(path.join(RAUC_DIR, 'health-gate'), [], {
        env: {
          ...system.env,
          PRINTYARD_GATE_UNITS: 'printyard-dashboard.service',
          PRINTYARD_GATE_SYSTEMCTL: options.unitsActive ? 'true' : 'false',
          PRINTYARD_GATE_HEALTH_URLS: healthUrl,
          PRINTYARD_GATE_PACKAGE_JSON: path.join(gateDir, 'package.json'),
          PRINTYARD_GATE_STATE_DIRS: path.join(gateDir, 'state'),
          PRINTYARD_GATE_TIMEOUT_S: '1',
          PRINTYARD_GATE_INTERVAL_S: '0.2',
          PRINTYARD_GATE_REBOOT: `touch ${path.join(gateDir, 'rebooted')}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.stderr.on('data', (chunk) => {
        out += chunk;
      });
      child.on('close', (code) => resolve({ code, out }));
    });
  const bootState = () => readFileSync(path.join(system.bootDir, 'state.A'), 'utf8').trim();

  test('services up with the slot’s version and readable state: the booted slot is marked good, no reboot', async () => {
    const r = await runGate({ version: '1.1.0', unitsActive: true });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /version 1\.1\.0 is healthy/);
    assert.equal(bootState(), 'good');
    assert.equal(existsSync(path.join(gateDir, 'rebooted')), false);
  });

  test('an old version answering, a unit down or a corrupt state file: marked bad and rebooted', async () => {
    const stale = await runGate({ version: '1.2.0', unitsActive: true });
    assert.equal(stale.code, 1, stale.out);
    assert.match(stale.out, /reports version 1\.1\.0, this slot has 1\.2\.0/);
    assert.equal(bootState(), 'bad');
    assert.ok(existsSync(path.join(gateDir, 'rebooted')));

    rmSync(path.join(gateDir, 'rebooted'));
    writeFileSync(path.join(gateDir, 'state', 'dashboard', 'history.json'), '{"records": [');
    const broken = await runGate({ version: '1.1.0', unitsActive: false });
    assert.equal(broken.code, 1, broken.out);
    assert.match(broken.out, /printyard-dashboard\.service is not active/);
    assert.match(broken.out, /history\.json is unreadable/);
    assert.ok(existsSync(path.join(gateDir, 'rebooted')));
  });
});
