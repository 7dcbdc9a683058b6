/**
 * A dashboard in a process of its own, for the restart tests (restart.test.ts kills it with
 * SIGKILL): the printers with the real drivers, the WebSocket and the queue, the test
 * authenticator, on a free loopback port with the data dir of argv[2]. Its start watchdog waits
 * long, so that a start the printer never answers keeps the dispatch in flight.
 * Prints `listening on <url>` on stderr once it takes requests.
 */
import { startDashboard } from '../../../appliance/dashboard/app.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { historyFeature, inventoryFeature, liveFeature, printersFeature, queueFeature } from '../../../appliance/dashboard/features.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import { bambuLanDriverFactory } from '../../../appliance/dashboard/printers/families/bambu-lan/bambu-driver.js';
import { testAuthenticator } from '../../fixtures/dashboard.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: queue-child.js <data dir>');
const registry = new DriverRegistry();
registry.register('bambu-lan', bambuLanDriverFactory({ startTimeoutMs: 120_000 }));
const log = createLogger({ name: 'queue-child', level: 'warn' });
const server = await startDashboard({ port: 0, bind: '127.0.0.1', data_dir: dataDir, log_level: 'warn' }, log, {
  env: {},
  features: [printersFeature, inventoryFeature, historyFeature, liveFeature, queueFeature],
  services: { printers: { drivers: registry } },
  createAuthenticator: testAuthenticator,
});
process.stderr.write(`listening on ${server.url}\n`);
