#!/usr/bin/env node
/**
 * printyard-slicer: the headless slicing service (REST contract in ../shared/spec/slicer-service.md).
 * Start-up, exit status and signals are common/service-main.ts's: 0 after a clean stop, 2 for
 * invalid options, 1 when it cannot start or fails. What is the slicer's own: the warnings about
 * an exposed service or a token file others may read, files for its user only, lowered helper
 * threads, and a second Ctrl-C (SIGINT) cancelling running jobs at once.
 */
import { runService } from '../../common/service-main.js';
import { lowerOtherThreads } from '../../common/thread-priority.js';
import { exposureWarning, folderDefaults, loadOptions, OPTIONS, SETTINGS_FILE, tokenFileWarning } from './options.js';
import { startSlicerService } from './service.js';

/** Nice value of the threads that are not the event loop: /api/health must answer in milliseconds. */
const HELPER_NICE = 19;
/**
 * Everything the service creates (uploads, G-code, previews, job records, their folders) is for
 * its own user only: models and prints are the users' work. Set for the whole process, so the
 * files that libraries and the slicing threads create are covered too.
 */
const PRIVATE_UMASK = 0o077;

await runService({
  name: 'printyard-slicer',
  summary: 'The Printyard slicing service: profiles, slicing and previews over HTTP.',
  schema: OPTIONS,
  optionsFile: `<config-dir>/${SETTINGS_FILE}`,
  folderDefaults,
  loadOptions,
  async start(options, log) {
    for (const warning of [exposureWarning(options), tokenFileWarning(options, process.env)]) {
      if (warning) log.warn(warning);
    }
    process.umask(PRIVATE_UMASK);
    const service = await startSlicerService(options, log);
    // After the start, so that V8's helpers and libuv's pool exist; slicing processes lower themselves.
    lowerOtherThreads(HELPER_NICE);
    return service;
  },
  startedFields: (options) => ({ config_dir: options.config_dir, jobs_dir: options.jobs_dir }),
  onSecondInterrupt(service, log) {
    log.warn('SIGINT again: cancelling running jobs now');
    service.hurry();
  },
});
