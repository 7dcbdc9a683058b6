// The failing health gate for scripts/test-image.mjs: a bundle of a copy of the slot image whose
// dashboard cannot start (its main.js replaced by one that throws; the copy changed with debugfs,
// never the built image), installed through the dashboard and rebooted into. The gate on the trial
// slot finds the dashboard not active for its whole window (300 s), marks the slot bad and reboots;
// GRUB then boots the old slot by itself, whose dashboard reports the update `rolled_back`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { selftestReports } from './vm.mjs';
import { api, assertDataKept, assertUnitsReady, install, otherSlot, requestReboot, slot, updateState, waitForState } from './update-checks.mjs';

const DASHBOARD_DIR = '/opt/printyard/dist/appliance/dashboard';
const BROKEN_MAIN = "throw new Error('a broken build, made by npm run test:image for the failing health gate check');\n";

function debugfs(image, commands, { write = false } = {}) {
  const args = [...(write ? ['-w'] : []), '-f', '-', image];
  return execFileSync('debugfs', args, { input: `${commands.join('\n')}\n`, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

/** A copy of `rootfs` at `out` whose dashboard throws at start. */
export function brokenRootfs(rootfs, out) {
  execFileSync('cp', ['--sparse=always', rootfs, out]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-broken-'));
  try {
    const main = path.join(dir, 'main.js');
    writeFileSync(main, BROKEN_MAIN, { mode: 0o644 });
    debugfs(out, [`cd ${DASHBOARD_DIR}`, 'rm main.js', `write ${main} main.js`], { write: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // debugfs reports its errors but exits 0: read the file back.
  const written = debugfs(out, [`cat ${DASHBOARD_DIR}/main.js`]);
  assert.ok(written.includes(BROKEN_MAIN.trim()), `the copy's dashboard main.js: ${written.slice(0, 300)}`);
  return out;
}

/**
 * The unit states of the trial boot's self-test report (the first of two boots after the reboot),
 * when it got that far before the gate's reboot: the evidence of what the gate saw.
 */
function trialUnits(serial) {
  const boots = serial.split('PRINTYARD-SELFTEST {"check":"units"').slice(1);
  if (boots.length < 2) return null;
  const report = selftestReports(`PRINTYARD-SELFTEST {"check":"units"${boots[0]}`);
  return Object.fromEntries(report.units.units.map((u) => [u.unit, `${u.active}/${u.sub}`]));
}

export async function failingGate(ctx, bundle, version) {
  const { vm, port, token } = ctx;
  const before = await updateState(port, token);
  const trialSlot = otherSlot(before.booted);
  const { installSeconds, state: installed } = await install(port, token, bundle);
  assert.equal(installed.last?.version, version);
  const mark = vm.serialMark();
  const rebootAt = Date.now();
  await requestReboot(port, token);
  // Only the old slot's dashboard can answer (the trial's throws at start).
  const boot = await vm.waitForBoot(mark, before.booted, 40 * 60_000);
  const rollbackSeconds = (Date.now() - rebootAt) / 1000;
  const after = await waitForState(port, token, (s) => s.last?.result !== 'installed', { timeoutMs: 5 * 60_000, what: 'the rollback noted' });
  assert.equal(after.booted, before.booted, `back on the old slot: ${JSON.stringify(after)}`);
  assert.equal(after.running_version, before.running_version);
  assert.equal(after.last?.result, 'rolled_back', JSON.stringify(after.last));
  assert.equal(after.last?.version, version);
  assert.equal(slot(after, trialSlot)?.boot_status, 'bad', `the trial slot marked bad: ${JSON.stringify(after.slots)}`);
  assert.equal(after.reboot_required, false);
  assert.ok(boot.grubEntries.includes(trialSlot), `GRUB booted the trial slot ${trialSlot} first: ${boot.grubEntries}`);
  const notes = await api(port, 'GET', '/api/notifications', { token });
  assert.equal(notes.status, 200, JSON.stringify(notes));
  const note = notes.body.items.find((n) => n.kind === 'system.update_rolled_back');
  assert.ok(note, `the system.update_rolled_back notification: ${JSON.stringify(notes.body.items.map((n) => n.kind))}`);
  return {
    version,
    trialSlot,
    backOn: after.booted,
    installSeconds,
    rollbackSeconds,
    grubEntries: boot.grubEntries,
    trialUnits: trialUnits(vm.serial(mark)),
    result: after.last.result,
    error: after.last.error,
    notification: note.title,
    unitsReadySeconds: assertUnitsReady(boot.report),
    data: await assertDataKept(ctx, boot.report),
  };
}
