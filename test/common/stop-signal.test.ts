import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitForStopSignal } from '../../appliance/common/stop-signal.js';

test('resolves with the first stop signal and leaves no listener behind', async () => {
  const before = [process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')];
  const stopped = waitForStopSignal();
  assert.deepEqual([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')], [before[0] + 1, before[1] + 1]);
  process.emit('SIGINT', 'SIGINT');
  assert.equal(await stopped, 'SIGINT');
  assert.deepEqual([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')], before);
});
