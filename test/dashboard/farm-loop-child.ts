/**
 * The dashboard of farm-loop.test.ts's restart part, in a process of its own (the test kills it
 * with SIGKILL): the real Bambu Lab and Marlin drivers, the spools, history, the WebSocket and
 * the queue, the test authenticator, on a free loopback port with the data dir of argv[2]. Its
 * start watchdog waits long, so that a start the printer never answers keeps a dispatch in flight.
 * Prints `listening on <url>` on stderr once it takes requests.
 */
import { createLogger } from '../../appliance/common/logger.js';
import { startDashboard } from '../../appliance/dashboard/app.js';
import { historyFeature, inventoryFeature, liveFeature, printersFeature, queueFeature } from '../../appliance/dashboard/features.js';
import { DriverRegistry } from '../../appliance/dashboard/printers/driver-registry.js';
import { bambuLanDriverFactory } from '../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import { marlinSerialDriverFactory } from '../../appliance/dashboard/printers/families/marlin-serial/marlin-driver.js';
import { testAuthenticator } from '../fixtures/dashboard.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: farm-loop-child.js <data dir>');
const registry = new DriverRegistry();
registry.register('bambu-lan', bambuLanDriverFactory({ startTimeoutMs: 120_000 }));
registry.register('marlin-serial', marlinSerialDriverFactory({ helloIntervalMs: 300 }));
const log = createLogger({ name: 'farm-child', level: 'warn' });
const server = await startDashboard({ port: 0, bind: '127.0.0.1', data_dir: dataDir, log_level: 'warn' }, log, {
  env: {},
  features: [printersFeature, inventoryFeature, historyFeature, liveFeature, queueFeature],
  services: { printers: { drivers: registry } },
  createAuthenticator: testAuthenticator,
});
process.stderr.write(`listening on ${server.url}\n`);
