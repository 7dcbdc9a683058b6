// Clean-up of a bench run: steps registered as things start (a child process, a temp folder) and
// run once, newest first, at the end or on SIGINT/SIGTERM. Used by bench-fleet.mjs and bench-farm.mjs.
import { processTree } from './fleet/proc-stats.mjs';

/** Runs registered steps once, newest first; `log(message)` hears about steps that failed. */
export function cleanupStack(log) {
  const steps = [];
  let running = null;
  return {
    add(step) {
      steps.push(step);
    },
    run() {
      running ??= (async () => {
        while (steps.length > 0) {
          try {
            await steps.pop()();
          } catch (err) {
            log(`cleanup: ${err.message}`);
          }
        }
      })();
      return running;
    },
  };
}

/**
 * SIGINT/SIGTERM run the clean-up and exit with status 130; the last resort step, run after the
 * orderly stops, ends anything still running that this process started.
 */
export function cleanUpOnSignals(cleanup, log) {
  let interrupted = false;
  const onSignal = (signal) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: cleaning up`);
    cleanup.run().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  cleanup.add(() => {
    for (const pid of processTree(process.pid).slice(1)) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
  });
}
