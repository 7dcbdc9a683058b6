/**
 * On Linux the nice value belongs to a thread, not to the process, and a new thread starts with
 * its creator's. A service whose event loop must answer in milliseconds while other threads of
 * the same process do heavy work (V8's garbage-collection helpers and libuv's file-system pool
 * serve the slicing threads too) lowers every thread but the event loop's.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import os from 'node:os';

/**
 * Sets `nice` on every thread of this process except the calling one and returns how many were
 * changed: 0 where threads cannot be listed (not Linux). Lowering a priority is always permitted.
 */
export function lowerOtherThreads(nice: number): number {
  let tids: number[];
  let self: number;
  try {
    tids = readdirSync('/proc/self/task').map(Number);
    // "<pid>/task/<tid>" of the calling thread.
    self = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return 0;
  }
  let changed = 0;
  for (const tid of tids) {
    if (tid === self) continue;
    try {
      os.setPriority(tid, nice);
      changed++;
    } catch {
      // The thread ended after it was listed.
    }
  }
  return changed;
}
