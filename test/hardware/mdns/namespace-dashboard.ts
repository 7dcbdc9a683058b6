/**
 * The dashboard of announce.test.ts, run inside the test's network namespace: the executable's
 * composition, listening on every address (as on a box; the namespace has no other network),
 * the test authenticator, the data dir of argv[2]. Prints JSON lines: `{"event":"ready", port,
 * box_id}`, then answers commands from stdin: `{"cmd":"request", method, path, body}` (as an
 * admin) → `{"event":"response", id, status, json}`, `{"cmd":"stop"}` → `{"event":"stopped"}`.
 */
import readline from 'node:readline';
import { createLogger } from '../../../appliance/common/logger.js';
import { startDashboard } from '../../../appliance/dashboard/app.js';
import { request, TEST_TOKENS, testAuthenticator } from '../../fixtures/dashboard.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: namespace-dashboard.js <data dir>');
const print = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
const log = createLogger({ name: 'ns-dashboard', level: 'warn', write: (line) => void process.stderr.write(line) });
const server = await startDashboard({ port: 0, bind: '0.0.0.0', data_dir: dataDir, log_level: 'warn' }, log, {
  env: {},
  createAuthenticator: testAuthenticator,
});
print({ event: 'ready', port: server.port, box_id: server.services.presence.id });

for await (const line of readline.createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { cmd: string; id?: number; method?: string; path?: string; body?: unknown };
  if (command.cmd === 'request') {
    const answer = await request(`http://127.0.0.1:${server.port}`, command.method ?? 'GET', command.path ?? '/', {
      token: TEST_TOKENS.admin,
      body: command.body,
    });
    print({ event: 'response', id: command.id, status: answer.status, json: answer.json });
  } else if (command.cmd === 'stop') {
    await server.stop();
    print({ event: 'stopped' });
    break;
  }
}
process.exit(0);
