#!/usr/bin/env node
/**
 * printyard-dashboard: the print-farm dashboard server (REST + WebSocket, ../shared/spec/dashboard-api.md).
 * Exit status: 0 after a clean stop, 2 for invalid options or an invalid config.json, 1 when it
 * cannot start (e.g. the port is taken) or fails. SIGTERM or SIGINT stops it gracefully.
 */
import { CONFIG_ERROR, configUsage, redactConfig } from '../common/config.js';
import { toAppError } from '../common/errors.js';
import { createLogger } from '../common/logger.js';
import { packageVersion } from '../common/version.js';
import { startDashboard } from './app.js';
import { folderDefaults, loadOptions, OPTIONS } from './options.js';
import { CONFIG_FILE, redactSettings, settingsUsage } from './settings/schema.js';
import { waitForStopSignal } from '../common/stop-signal.js';

const NAME = 'printyard-dashboard';

function usage(): string {
  return `Usage: ${NAME} [options]

The Printyard print-farm dashboard: printers, live status and the REST API (docs at /api/docs).

Options (also read from ${OPTIONS['x-env-prefix']}* environment variables):
${configUsage(OPTIONS, { names: 'flags', defaults: folderDefaults(process.env), more: [['--help', 'this help'], ['--version', 'print the version']] })}

Settings in <data-dir>/${CONFIG_FILE} (created with the defaults on the first start):
${settingsUsage()}`;
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
  // A library promise nobody awaits must not take the service down.
  process.on('unhandledRejection', (reason) => {
    log.error(`unhandled rejection: ${reason instanceof Error ? reason.stack ?? reason.message : String(reason)}`);
  });
  log.debug('options', Object.fromEntries(Object.entries(redactConfig(OPTIONS, options)).map(([k, v]) => [k, String(v)])));

  const signal = waitForStopSignal();
  let server;
  try {
    server = await startDashboard(options, log);
  } catch (err) {
    const error = toAppError(err);
    log.error(`cannot start: ${error.message}`);
    return error.code === CONFIG_ERROR ? 2 : 1;
  }
  log.debug('settings', { settings: JSON.stringify(redactSettings(server.context.settings.current)) });
  log.info(`${NAME} ${packageVersion()} listening on ${server.url}`, { data_dir: options.data_dir });

  log.info(`${await signal}: stopping`);
  process.on('SIGTERM', () => log.info('SIGTERM: already stopping'));
  process.on('SIGINT', () => log.info('SIGINT: already stopping'));
  await server.stop();
  log.info('stopped');
  return 0;
}

// Nothing left behind (a slow client's connection, a stray timer) may keep a stopped service alive.
process.exit(await main(process.argv.slice(2)));
