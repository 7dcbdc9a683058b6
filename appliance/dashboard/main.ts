#!/usr/bin/env node
/**
 * printyard-dashboard: the print-farm dashboard server (REST + WebSocket, ../shared/spec/dashboard-api.md).
 * Start-up, exit status and signals are common/service-main.ts's: 0 after a clean stop, 2 for
 * invalid options or an invalid config.json, 1 when it cannot start (e.g. the port is taken) or
 * fails. What is the dashboard's own: the config.json keys in --help and the settings in the log.
 */
import { runService } from '../common/service-main.js';
import { startDashboard } from './app.js';
import { folderDefaults, loadOptions, OPTIONS } from './options.js';
import { CONFIG_FILE, redactSettings, settingsUsage } from './settings/schema.js';

await runService({
  name: 'printyard-dashboard',
  summary: 'The Printyard print-farm dashboard: printers, live status and the REST API (docs at /api/docs).',
  schema: OPTIONS,
  folderDefaults,
  moreHelp: () => `Settings in <data-dir>/${CONFIG_FILE} (created with the defaults on the first start):\n${settingsUsage()}`,
  loadOptions,
  async start(options, log, host) {
    const server = await startDashboard(options, log, { underSystemd: host.systemd });
    log.debug('settings', { settings: JSON.stringify(redactSettings(server.context.settings.current)) });
    return server;
  },
  startedFields: (options) => ({ data_dir: options.data_dir }),
  status: (server) => `listening on ${server.url}, ${server.services.printers.fleet.list().length} printers`,
});
