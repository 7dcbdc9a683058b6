// The power cut in the middle of an install, for scripts/test-image.mjs: a good bundle uploaded,
// QEMU killed (SIGKILL: no shutdown, nothing flushed by the guest) while RAUC writes the other
// slot, then started again on the same disk. RAUC marks the slot bad before writing it, so GRUB
// boots the old slot; the dashboard notes the interrupted install as failed and takes a new one.
import assert from 'node:assert/strict';
import { updateAndCommit } from './good-update.mjs';
import { assertDataKept, assertUnitsReady, otherSlot, slot, updateState, upload, waitForState } from './update-checks.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * RAUC's progress messages from "Updating slots" on: "Checking slot rootfs.N" (it marks the slot
 * bad), then "Copying image to rootfs.N" while it writes.
 */
const UPDATING = /updating slots|checking slot|copying image/i;

export async function powerCut(ctx, bundle, version) {
  const { vm, port, token } = ctx;
  const before = await updateState(port, token);
  const target = otherSlot(before.booted);
  const t0 = Date.now();
  await upload(port, token, bundle);
  const writing = await waitForState(port, token, (s) => s.busy === null || (s.busy.phase === 'installing' && UPDATING.test(s.busy.message)), {
    timeoutMs: 10 * 60_000,
    everyMs: 500,
    what: 'RAUC updating the slot',
  });
  assert.ok(writing.busy, `the install ended before the power cut could come: ${JSON.stringify(writing.last)}`);
  // A few seconds into the write, so the slot holds part of the new image.
  await sleep(/copying image/i.test(writing.busy.message) ? 3000 : 8000);
  const atCut = await updateState(port, token);
  assert.ok(atCut.busy, `still installing at the cut: ${JSON.stringify(atCut.last)}`);
  const cutAfterSeconds = (Date.now() - t0) / 1000;
  await vm.kill();
  const restartAt = Date.now();
  vm.start();
  const boot = await vm.waitForBoot(0, before.booted, 30 * 60_000);
  const bootSeconds = (Date.now() - restartAt) / 1000;
  const unitsReadySeconds = assertUnitsReady(boot.report);
  const after = await waitForState(port, token, () => true, { timeoutMs: 5 * 60_000, what: 'the dashboard after the power cut' });
  assert.equal(after.booted, before.booted, `booted the old slot: ${JSON.stringify(after)}`);
  assert.equal(after.running_version, before.running_version);
  assert.equal(after.busy, null, 'the update API is not stuck');
  assert.equal(after.reboot_required, false);
  assert.equal(after.last?.result, 'failed', JSON.stringify(after.last));
  assert.notEqual(slot(after, target)?.boot_status, 'good', `the half-written slot is not bootable: ${JSON.stringify(after.slots)}`);
  const figures = {
    version,
    cutAfterSeconds,
    progressAtCut: atCut.busy,
    bootSeconds,
    grubEntries: boot.grubEntries,
    unitsReadySeconds,
    result: after.last.result,
    error: after.last.error,
    halfWrittenSlot: slot(after, target),
    data: await assertDataKept(ctx, boot.report),
  };
  // The API is not stuck: the same bundle again, installed, rebooted into and committed.
  figures.reinstall = await updateAndCommit(ctx, bundle, version);
  return figures;
}
