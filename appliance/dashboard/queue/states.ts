/**
 * The queue's one state machine: the states of a copy (one print), the events that move it, the
 * job's state (derived from its copies and two flags, never stored apart from them), and what the
 * operator may do to a job in each state. README.md has the same as tables.
 *
 * A job dispatches nothing while it is held, cancelled or failed; a failed copy is not retried by
 * itself (a failed print usually leaves a mess on the plate or a cause a person has to see):
 * the job stops as `failed` and the operator requeues it, which puts the failed copies back.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JobCopy, QueueJob } from './job.js';

export const COPY_STATES = ['pending', 'dispatching', 'printing', 'done', 'failed', 'cancelled'] as const;
export type CopyState = (typeof COPY_STATES)[number];

export const JOB_STATES = ['queued', 'held', 'dispatching', 'printing', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export type CopyEvent =
  /** The dispatcher claimed a printer for the copy (persisted before any upload). */
  | 'claim'
  /** The printer accepted the start. */
  | 'started'
  /** Every upload/start attempt failed. */
  | 'dispatch_failed'
  /** After a restart the printer does not report printing the file: the claim is undone. */
  | 'unclaim'
  /** The print ended on the printer. */
  | 'finished'
  | 'print_failed'
  /** The operator requeued a failed job. */
  | 'requeue'
  /** The operator cancelled the job or lowered its copies. */
  | 'cancel';

/** Copy state × event → next state; a pair not listed is refused. */
const COPY_TRANSITIONS: Readonly<Record<CopyState, Partial<Record<CopyEvent, CopyState>>>> = {
  pending: { claim: 'dispatching', cancel: 'cancelled' },
  dispatching: { started: 'printing', dispatch_failed: 'failed', unclaim: 'pending' },
  printing: { finished: 'done', print_failed: 'failed' },
  done: {},
  failed: { requeue: 'pending', cancel: 'cancelled' },
  cancelled: {},
};

export const ACTIVE_COPY_STATES: ReadonlySet<CopyState> = new Set(['dispatching', 'printing']);

export function canMoveCopy(copy: JobCopy, event: CopyEvent): boolean {
  return COPY_TRANSITIONS[copy.state][event] !== undefined;
}

/** Moves the copy, or throws (an internal error: callers check with canMoveCopy where it may happen). */
export function moveCopy(copy: JobCopy, event: CopyEvent): CopyState {
  const next = COPY_TRANSITIONS[copy.state][event];
  if (next === undefined) throw new AppError(ErrorCode.conflict, 409, `copy ${copy.copy} is ${copy.state}: it cannot take "${event}"`);
  copy.state = next;
  return next;
}

/**
 * The job's state, read in this order: cancelled; a copy being dispatched; a copy printing; held;
 * a failed copy; every copy done; else queued (copies wait for a printer).
 */
export function jobState(job: Pick<QueueJob, 'cancelled' | 'held' | 'copies'>): JobState {
  if (job.cancelled) return 'cancelled';
  const states = new Set(job.copies.map((c) => c.state));
  if (states.has('dispatching')) return 'dispatching';
  if (states.has('printing')) return 'printing';
  if (job.held) return 'held';
  if (states.has('failed')) return 'failed';
  if (job.copies.every((c) => c.state === 'done' || c.state === 'cancelled')) return 'done';
  return 'queued';
}

/** A job the dispatcher may take a copy of now. */
export function isDispatchable(job: QueueJob): boolean {
  return !job.cancelled && !job.held && !job.copies.some((c) => c.state === 'failed') && job.copies.some((c) => c.state === 'pending');
}

export const JOB_COMMANDS = ['hold', 'release', 'requeue', 'cancel'] as const;
export type JobCommand = (typeof JOB_COMMANDS)[number];

/** When each operator command is allowed, and how the refusal reads. */
const COMMAND_RULES: Readonly<Record<JobCommand, { allowed(job: QueueJob): boolean; when: string }>> = {
  hold: { allowed: (job) => !job.held && !job.cancelled && jobState(job) !== 'done', when: 'a job that is not held, done or cancelled' },
  release: { allowed: (job) => job.held, when: 'a held job' },
  requeue: { allowed: (job) => !job.cancelled && job.copies.some((c) => c.state === 'failed'), when: 'a job with failed copies' },
  cancel: { allowed: (job) => !job.cancelled && !hasActiveCopy(job) && jobState(job) !== 'done', when: 'a job with nothing on a printer, not done' },
};

/**
 * The command a PUT's `state` means for this job: `held` holds; `cancelled` cancels; `queued`
 * releases a held job, requeues a failed one. Null when the job is in that state already.
 */
export function commandFor(job: QueueJob, wanted: 'queued' | 'held' | 'cancelled'): JobCommand | null {
  if (wanted === 'held') return job.held ? null : 'hold';
  if (wanted === 'cancelled') return job.cancelled ? null : 'cancel';
  if (job.held) return 'release';
  if (job.copies.some((c) => c.state === 'failed') || job.cancelled) return 'requeue';
  return null;
}

/** Applies an operator command: 409 naming the state when it is not allowed. */
export function applyCommand(job: QueueJob, command: JobCommand): void {
  const rule = COMMAND_RULES[command];
  if (!rule.allowed(job)) {
    const state = jobState(job);
    throw new AppError(ErrorCode.conflict, 409, `a ${state} job cannot be ${PAST[command]} (only ${rule.when})`, { state });
  }
  if (command === 'hold') job.held = true;
  if (command === 'release' || command === 'requeue') {
    job.held = false;
    requeueFailed(job);
  }
  if (command === 'cancel') {
    job.cancelled = true;
    job.held = false;
    for (const copy of job.copies) if (canMoveCopy(copy, 'cancel')) moveCopy(copy, 'cancel');
  }
}

function requeueFailed(job: QueueJob): void {
  for (const copy of job.copies) {
    if (!canMoveCopy(copy, 'requeue')) continue;
    moveCopy(copy, 'requeue');
    copy.printer_id = null;
    copy.remote_name = null;
    copy.started_at = null;
    copy.ended_at = null;
  }
  job.error = null;
}

const PAST: Readonly<Record<JobCommand, string>> = { hold: 'held', release: 'released', requeue: 'requeued', cancel: 'cancelled' };

/** Jobs whose requirements, file and copies below the started ones may not change: something of them is on a printer. */
export function hasActiveCopy(job: QueueJob): boolean {
  return job.copies.some((c) => ACTIVE_COPY_STATES.has(c.state));
}

/** Deleting a job is refused while a copy is being dispatched or printed (stop the print first). */
export function checkDeletable(job: QueueJob): void {
  if (hasActiveCopy(job)) {
    throw new AppError(ErrorCode.conflict, 409, `the job is ${jobState(job)}: stop its print first, or hold it`, { state: jobState(job) });
  }
}
