/**
 * Which queue jobs automation holds, and why. Every hold is made for a reason (a node's `reason`:
 * "dispatch-window", "printer-error", "climate:<location>"), and the jobs held for each reason are
 * remembered (in Node-RED's global context, kept on disk by the launcher's settings). A release
 * for a reason lets go only of the jobs no other reason still holds, and never of a job somebody
 * held by hand: such a job was already held, so automation never recorded it.
 */

const { jobNeedsAny } = require('./materials.js');

/**
 * Job states (as the API shows them) a hold applies to: waiting, failed, or with copies still to
 * send. A job already held while a copy prints shows `printing`: its hold is refused (409) and
 * skipped.
 */
const HOLDABLE_STATES = new Set(['queued', 'failed', 'dispatching', 'printing']);

/** @typedef {Record<string, string[]>} Holds  reason → job ids held for it */

/**
 * The jobs a hold for `reason` takes: to hold (not held yet) and to record only (already held by
 * automation for another reason, so a release of that reason leaves them held).
 * `materials` (families) limits it to jobs that need one of them; null: every job.
 */
function planHold(jobs, holds, reason, materials) {
  const byAutomation = new Set(Object.entries(holds).flatMap(([r, ids]) => (r === reason ? [] : ids)));
  const toHold = [];
  const toRecord = [];
  for (const job of jobs) {
    if (materials !== null && !jobNeedsAny(job, materials)) continue;
    if (HOLDABLE_STATES.has(job.state)) toHold.push(job.id);
    else if (job.state === 'held' && byAutomation.has(job.id)) toRecord.push(job.id);
  }
  return { toHold, toRecord };
}

/** The holds with `ids` added under `reason`. */
function recordHolds(holds, reason, ids) {
  const merged = new Set([...(holds[reason] ?? []), ...ids]);
  return { ...holds, [reason]: [...merged] };
}

/** The jobs a release for `reason` lets go of, and the holds without that reason. */
function planRelease(holds, reason) {
  const rest = { ...holds };
  delete rest[reason];
  const stillHeld = new Set(Object.values(rest).flat());
  return { toRelease: (holds[reason] ?? []).filter((id) => !stillHeld.has(id)), holds: rest };
}

module.exports = { planHold, recordHolds, planRelease };
