import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AppError } from '../../../../appliance/common/errors.js';
import { SliceSlots } from '../../../../appliance/dashboard/slicing/native/slice-slots.js';

const never = (): AbortSignal => new AbortController().signal;

test('one runs, the next wait in order of arrival, one more is refused with 429', async () => {
  const slots = new SliceSlots({ running: 1, waiting: 2 }, 'the test engine');
  const order: string[] = [];
  const first = await slots.acquire(never());
  const second = slots.acquire(never()).then((release) => {
    order.push('second');
    return release;
  });
  const third = slots.acquire(never()).then((release) => {
    order.push('third');
    return release;
  });
  assert.equal(slots.hasRoom, false);
  await assert.rejects(
    slots.acquire(never()),
    (err: AppError) => err.status === 429 && err.code === 'ERR_TOO_MANY_JOBS' && /the test engine is busy: 1 slicing, 2 waiting/.test(err.message),
  );
  assert.deepEqual(slots.stats(), { running: 1, waiting: 2, limits: { running: 1, waiting: 2 } });
  first();
  first();
  (await second)();
  (await third)();
  assert.deepEqual(order, ['second', 'third']);
  assert.equal(slots.stats().running, 0);
  assert.equal(slots.hasRoom, true);
});

test('a request cancelled while it waits leaves the queue at once', async () => {
  const slots = new SliceSlots({ running: 1, waiting: 1 }, 'the test engine');
  const release = await slots.acquire(never());
  const controller = new AbortController();
  const waiting = slots.acquire(controller.signal);
  controller.abort();
  await assert.rejects(waiting, { code: 'ERR_CANCELLED' });
  assert.equal(slots.stats().waiting, 0);
  const next = slots.acquire(never());
  release();
  (await next)();
  assert.equal(slots.stats().running, 0);
  await assert.rejects(slots.acquire(AbortSignal.abort()), { code: 'ERR_CANCELLED' });
});
