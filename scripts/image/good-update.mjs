// The good update for scripts/test-image.mjs: a bundle of the image's own slot image with a higher
// version, installed through the dashboard, the reboot asked for, the box on the other slot
// running that version, committed by the health gate, with its data.
import assert from 'node:assert/strict';
import { assertDataKept, assertUnitsReady, install, otherSlot, requestReboot, slot, updateState, waitForState } from './update-checks.mjs';

/** Installs `bundle` (version `version`), reboots and checks the commit; returns the figures. */
export async function updateAndCommit(ctx, bundle, version) {
  const { vm, port, token } = ctx;
  const before = await updateState(port, token);
  const target = otherSlot(before.booted);
  const { installSeconds } = await install(port, token, bundle);
  const mark = vm.serialMark();
  const rebootAt = Date.now();
  await requestReboot(port, token);
  const boot = await vm.waitForBoot(mark, target, 30 * 60_000);
  const rebootSeconds = (Date.now() - rebootAt) / 1000;
  // The health gate commits the slot after both services answer (it polls every 10 s).
  const after = await waitForState(port, token, (s) => slot(s, s.booted)?.boot_status === 'good', {
    timeoutMs: 6 * 60_000,
    what: `slot ${target} committed`,
  });
  assert.equal(after.booted, target, `booted the other slot: ${JSON.stringify(after)}`);
  assert.equal(after.running_version, version);
  assert.equal(after.last?.result, 'updated', JSON.stringify(after.last));
  return {
    from: before.booted,
    to: after.booted,
    version,
    installSeconds,
    rebootSeconds,
    grubEntries: boot.grubEntries,
    unitsReadySeconds: assertUnitsReady(boot.report),
    data: await assertDataKept(ctx, boot.report),
  };
}
