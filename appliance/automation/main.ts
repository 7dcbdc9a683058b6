#!/usr/bin/env node
/**
 * printyard-node-red: Node-RED 4.1 with our node package, as its own service on its own port
 * (loopback by default). The systemd unit `printyard-node-red.service` runs this file and caps
 * Node-RED's heap there (`node --max-old-space-size=…`): flows can hold any amount of data in
 * context, and the box's memory belongs to the dashboard and the slicer first.
 * Start-up, exit status and signals are common/service-main.ts's.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runService } from '../common/service-main.js';
import { startNodeRed } from './node-red.js';
import { folderDefaults, loadOptions, OPTIONS } from './options.js';

/** The repository (or the installed tree): dist/appliance/automation/main.js is three folders down. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

await runService({
  name: 'printyard-node-red',
  summary: 'Node-RED for the Printyard farm: the editor (dashboard admins sign in with their session), our nodes and the ready flows.',
  schema: OPTIONS,
  folderDefaults,
  loadOptions,
  async start(options, log) {
    const service = await startNodeRed({
      port: options.port,
      bind: options.bind,
      dashboardUrl: options.dashboard_url,
      userDir: path.join(options.data_dir, 'node-red'),
      nodesDir: path.join(ROOT, 'appliance', 'node-red-printyard'),
      flowsDir: path.join(ROOT, 'flows'),
      log,
    });
    // runService tells systemd READY once this resolves: Node-RED listens and its flows have started.
    log.info(`Node-RED ${service.version}; the editor: ${service.url}/?access_token=<dashboard admin session token>`);
    return service;
  },
  startedFields: (options) => ({ data_dir: options.data_dir, dashboard: options.dashboard_url }),
});
