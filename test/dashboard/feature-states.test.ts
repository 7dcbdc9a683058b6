import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { notificationsFeature, printersFeature } from '../../appliance/dashboard/features.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../fixtures/dashboard.js';

let dash: DashboardFixture;
let stopped = 0;

before(async () => {
  dash = await startDashboardFixture({
    createAuthenticator: testAuthenticator,
    features: [
      notificationsFeature,
      () => ({
        name: 'broken_bridge',
        routes: [
          {
            method: 'get',
            path: '/api/broken',
            level: 'view',
            tag: 'test',
            summary: 'A route of a feature that cannot start',
            responses: { 200: { description: 'never' } },
            handler: () => ({ ok: true }),
          },
        ],
        start: async () => {
          throw new Error('no desktop slicer folder: EACCES');
        },
        stop: async () => {
          stopped++;
        },
        info: () => ({ should: 'not be listed' }),
      }),
      printersFeature,
    ],
    logLevel: 'warn',
  });
});

after(() => dash.cleanup());

test('a feature whose start fails: the dashboard runs without it, says so in the log and the system info, its routes answer 503', async () => {
  const { view } = TEST_TOKENS;
  assert.equal((await dash.request('GET', '/api/health')).status, 200);
  const printers = await dash.request('GET', '/api/printers', { token: view });
  assert.equal(printers.status, 200, 'a feature started after the broken one runs');
  const notifications = await dash.request('GET', '/api/notifications', { token: view });
  assert.equal(notifications.status, 200, 'a feature started before it runs');

  const broken = await dash.request('GET', '/api/broken', { token: view });
  assert.equal(broken.status, 503);
  assert.equal(broken.json.code, 'ERR_UNAVAILABLE');
  assert.match(broken.json.error, /the broken_bridge feature is not running: it failed to start \(no desktop slicer folder: EACCES\)/);

  const info = await dash.request('GET', '/api/system/info', { token: view });
  const states = info.json.features as { name: string; state: string; error: string | null }[];
  assert.deepEqual(
    states.map((s) => [s.name, s.state]),
    [
      ['notifications', 'running'],
      ['broken_bridge', 'failed'],
      ['printers', 'running'],
    ],
  );
  assert.equal(states[1].error, 'no desktop slicer folder: EACCES');
  assert.equal(info.json.broken_bridge, undefined, 'a failed feature has no block of its own');
  assert.ok(info.json.printers, 'running features keep their blocks');
  assert.match(dash.logs(), /feature broken_bridge did not start, the dashboard runs without it: no desktop slicer folder: EACCES/);
  assert.equal(stopped, 1, 'what the failed start opened was stopped again');
});
