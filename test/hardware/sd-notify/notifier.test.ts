import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../../appliance/common/logger.js';
import { createServiceNotifier, watchdogPeriodMs } from '../../../appliance/hardware/sd-notify/notifier.js';

const log = createLogger({ name: 'test', level: 'error' });

test('the watchdog period is half of WATCHDOG_USEC, for the process WATCHDOG_PID names', () => {
  assert.equal(watchdogPeriodMs({ WATCHDOG_USEC: '30000000' }, 42), 15_000);
  assert.equal(watchdogPeriodMs({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '42' }, 42), 15_000);
  assert.equal(watchdogPeriodMs({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '41' }, 42), null);
  assert.equal(watchdogPeriodMs({}, 42), null);
  assert.equal(watchdogPeriodMs({ WATCHDOG_USEC: 'soon' }, 42), null);
  assert.equal(watchdogPeriodMs({ WATCHDOG_USEC: '0' }, 42), null);
});

test('without NOTIFY_SOCKET the notifier does nothing; the variables never reach child processes', async () => {
  const env: Record<string, string | undefined> = { WATCHDOG_USEC: '1000000', OTHER: 'kept' };
  const silent = createServiceNotifier(env, log);
  assert.equal(silent.socket, null);
  assert.equal(silent.pingEveryMs, null);
  silent.ready(() => assert.fail('no status is asked for outside systemd'));
  silent.stopping('stopping');
  await silent.close();
  assert.deepEqual(env, { OTHER: 'kept' });

  const underSystemd: Record<string, string | undefined> = { NOTIFY_SOCKET: '/run/x.sock', WATCHDOG_USEC: '1000000', WATCHDOG_PID: '7' };
  const notifier = createServiceNotifier(underSystemd, log, 7);
  assert.equal(notifier.socket, '/run/x.sock');
  assert.equal(notifier.pingEveryMs, 500);
  assert.deepEqual(underSystemd, {});
});
