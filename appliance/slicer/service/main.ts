#!/usr/bin/env node
/**
 * printyard-slicer: the headless slicing service (REST contract in ../shared/spec/slicer-service.md).
 * Exit status: 0 after a clean stop, 2 for invalid options, 1 when it cannot start or fails.
 * SIGTERM or SIGINT stops it gracefully; a second Ctrl-C (SIGINT) cancels running jobs at once.
 * Repeated SIGTERMs do not: a terminal's Ctrl-C reaches both a supervisor (npm start) and the
 * service, and the supervisor's SIGTERM must not cut the grace period short.
 */
import { configUsage, redactConfig } from '../../common/config.js';
import { toAppError } from '../../common/errors.js';
import { createLogger } from '../../common/logger.js';
import { lowerOtherThreads } from '../../common/thread-priority.js';
import { packageVersion } from '../../common/version.js';
import { exposureWarning, folderDefaults, loadOptions, OPTIONS, SETTINGS_FILE, tokenFileWarning } from './options.js';
import { startSlicerService } from './service.js';
import { waitForStopSignal } from '../../common/stop-signal.js';

const NAME = 'printyard-slicer';
/** Nice value of the threads that are not the event loop: /api/health must answer in milliseconds. */
const HELPER_NICE = 19;
/**
 * Everything the service creates (uploads, G-code, previews, job records, their folders) is for
 * its own user only: models and prints are the users' work. Set for the whole process, so the
 * files that libraries and the slicing threads create are covered too.
 */
const PRIVATE_UMASK = 0o077;

function usage(): string {
  return `Usage: ${NAME} [options]

The Printyard slicing service: profiles, slicing and previews over HTTP.

Options (also read from ${OPTIONS['x-env-prefix']}* environment variables and <config-dir>/${SETTINGS_FILE}):
${configUsage(OPTIONS, { names: 'flags', defaults: folderDefaults(process.env), more: [['--help', 'this help'], ['--version', 'print the version']] })}`;
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  if (argv.includes('--version')) {
    process.stdout.write(packageVersion() + '\n');
    return 0;
  }
  let options;
  try {
    options = loadOptions(argv, process.env);
  } catch (err) {
    process.stderr.write(`${NAME}: ${toAppError(err).message}\nRun ${NAME} --help for the options.\n`);
    return 2;
  }
  const log = createLogger({ name: NAME, level: options.log_level });
  // A library promise nobody awaits must not take the service (and every job in it) down.
  process.on('unhandledRejection', (reason) => {
    log.error(`unhandled rejection: ${reason instanceof Error ? reason.stack ?? reason.message : String(reason)}`);
  });
  log.debug('options', Object.fromEntries(Object.entries(redactConfig(OPTIONS, options)).map(([k, v]) => [k, String(v)])));
  for (const warning of [exposureWarning(options), tokenFileWarning(options, process.env)]) {
    if (warning) log.warn(warning);
  }
  process.umask(PRIVATE_UMASK);

  const signal = waitForStopSignal();
  let service;
  try {
    service = await startSlicerService(options, log);
  } catch (err) {
    log.error(`cannot start: ${toAppError(err).message}`);
    return 1;
  }
  log.info(`${NAME} ${packageVersion()} listening on ${service.url}`, { config_dir: options.config_dir, jobs_dir: options.jobs_dir });
  // After the start, so that V8's helpers and libuv's pool exist; slicing processes lower themselves.
  lowerOtherThreads(HELPER_NICE);

  log.info(`${await signal}: stopping`);
  process.on('SIGTERM', () => log.info('SIGTERM: already stopping'));
  process.once('SIGINT', () => {
    log.warn('SIGINT again: cancelling running jobs now');
    service.hurry();
  });
  await service.stop();
  log.info('stopped');
  return 0;
}

// Nothing left behind (a slow client's connection, a stray timer) may keep a stopped service alive.
process.exit(await main(process.argv.slice(2)));
