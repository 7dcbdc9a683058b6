/** The queue's state machine: copy transitions, the derived job state, the operator's commands. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newCopy, type QueueJob } from '../../../appliance/dashboard/queue/job.js';
import {
  applyCommand,
  canMoveCopy,
  commandFor,
  COPY_STATES,
  isDispatchable,
  jobState,
  moveCopy,
  type CopyEvent,
  type CopyState,
} from '../../../appliance/dashboard/queue/states.js';

function job(states: CopyState[], flags: Partial<Pick<QueueJob, 'held' | 'cancelled'>> = {}): QueueJob {
  return {
    id: '0123456789abcdef',
    name: 'j',
    file: { name: 'j.gcode', format: 'gcode', path: 'queue-files/j.gcode', size_bytes: 1 },
    slice: null,
    priority: 0,
    held: flags.held ?? false,
    cancelled: flags.cancelled ?? false,
    requirements: { printer_ids: [], printer_type: null, printer_model: null, nozzle_diameter: null, filaments: [] },
    filaments_from: 'none',
    plan: { estimate_s: null, amounts: [], thumbnail: null },
    copies: states.map((state, i) => ({ ...newCopy(i + 1), state })),
    user: null,
    waiting_reason: null,
    error: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

test('copy transitions: exactly the documented ones', () => {
  const allowed: Record<CopyState, Partial<Record<CopyEvent, CopyState>>> = {
    pending: { claim: 'dispatching', cancel: 'cancelled' },
    dispatching: { started: 'printing', dispatch_failed: 'failed', unclaim: 'pending' },
    printing: { finished: 'done', print_failed: 'failed' },
    done: {},
    failed: { requeue: 'pending', cancel: 'cancelled' },
    cancelled: {},
  };
  const events: CopyEvent[] = ['claim', 'started', 'dispatch_failed', 'unclaim', 'finished', 'print_failed', 'requeue', 'cancel'];
  for (const state of COPY_STATES) {
    for (const event of events) {
      const copy = { ...newCopy(1), state };
      const next = allowed[state][event];
      assert.equal(canMoveCopy(copy, event), next !== undefined, `${state} + ${event}`);
      if (next === undefined) assert.throws(() => moveCopy(copy, event), /cannot take/);
      else assert.equal(moveCopy(copy, event), next);
    }
  }
});

test('the job state is read from the copies and the flags, in the documented order', () => {
  assert.equal(jobState(job(['pending', 'pending'])), 'queued');
  assert.equal(jobState(job(['done', 'pending'])), 'queued');
  assert.equal(jobState(job(['dispatching', 'printing'])), 'dispatching');
  assert.equal(jobState(job(['printing', 'failed'])), 'printing');
  assert.equal(jobState(job(['printing'], { held: true })), 'printing');
  assert.equal(jobState(job(['pending'], { held: true })), 'held');
  assert.equal(jobState(job(['failed', 'pending'], { held: true })), 'held');
  assert.equal(jobState(job(['done', 'failed', 'pending'])), 'failed');
  assert.equal(jobState(job(['done', 'cancelled'])), 'done');
  assert.equal(jobState(job(['cancelled'], { cancelled: true })), 'cancelled');
});

test('dispatchable: not held, not cancelled, no failed copy, a pending one', () => {
  assert.equal(isDispatchable(job(['pending'])), true);
  assert.equal(isDispatchable(job(['printing', 'pending'])), true);
  assert.equal(isDispatchable(job(['pending'], { held: true })), false);
  assert.equal(isDispatchable(job(['failed', 'pending'])), false);
  assert.equal(isDispatchable(job(['done'])), false);
});

test('commands: hold, release, requeue and cancel where allowed; 409 elsewhere, the job unchanged', () => {
  const failed = job(['done', 'failed', 'pending']);
  failed.error = 'copy 2 failed';
  assert.equal(commandFor(failed, 'queued'), 'requeue');
  applyCommand(failed, 'requeue');
  assert.deepEqual([failed.copies.map((c) => c.state), failed.error], [['done', 'pending', 'pending'], null]);

  const printing = job(['printing', 'pending']);
  assert.equal(commandFor(printing, 'queued'), null);
  applyCommand(printing, 'hold');
  assert.equal(commandFor(printing, 'queued'), 'release');
  assert.throws(() => applyCommand(printing, 'cancel'), /a printing job cannot be cancelled/);
  assert.equal(printing.cancelled, false);
  applyCommand(printing, 'release');
  assert.equal(printing.held, false);

  const queued = job(['failed', 'pending']);
  applyCommand(queued, 'cancel');
  assert.deepEqual([jobState(queued), queued.copies.map((c) => c.state)], ['cancelled', ['cancelled', 'cancelled']]);
  assert.throws(() => applyCommand(queued, 'hold'), /409|cannot be held/);
  assert.throws(() => applyCommand(job(['done']), 'cancel'), /a done job cannot be cancelled/);
});
