import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { lowerOtherThreads } from '../../appliance/common/thread-priority.js';

/** The nice value of a thread, from /proc (field 19 of stat, after the parenthesised name). */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

test('every thread but the calling one gets the lower priority', { skip: !existsSync('/proc/self/task') && 'needs Linux /proc' }, () => {
  const before = niceOf(process.pid);
  const changed = lowerOtherThreads(15);
  const others = readdirSync('/proc/self/task')
    .map(Number)
    .filter((tid) => tid !== process.pid);
  assert.ok(others.length > 0 && changed >= others.length - 1, `changed ${changed} of ${others.length}`);
  assert.equal(niceOf(process.pid), before, 'the event loop keeps its priority');
  assert.ok(others.filter((tid) => niceOf(tid) === 15).length >= others.length - 1);
});
