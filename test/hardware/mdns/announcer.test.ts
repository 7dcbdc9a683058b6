/**
 * The announcer's rules against a scripted responder (the real one is tested with zeroconf in
 * announce.test.ts): renames on conflicts, gives up after 20 names, the newest set wins, goodbye
 * before anything else is published and on stop.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../../appliance/common/logger.js';
import { type AnnouncedService, MdnsAnnouncer } from '../../../appliance/hardware/mdns/announcer.js';
import type { MdnsResponder, PublishOutcome, ServiceAnnouncement } from '../../../appliance/hardware/mdns/responder.js';

/** Names listed in `taken` conflict; every call is recorded in order. */
function scriptedResponder(taken: (name: string) => boolean) {
  const calls: string[] = [];
  const responder: MdnsResponder = {
    publish(announcement: ServiceAnnouncement) {
      calls.push(`publish ${announcement.type} ${announcement.name}`);
      const outcome: PublishOutcome = taken(announcement.name) ? 'conflict' : 'up';
      return {
        announcement,
        outcome: new Promise((resolve) => setTimeout(() => resolve(outcome), 5)),
        withdraw: async () => void calls.push(`withdraw ${announcement.type} ${announcement.name}`),
      };
    },
    browse: () => ({ services: () => [], stop() {} }),
    close: async () => void calls.push('close'),
  };
  return { responder, calls };
}

const log = createLogger({ name: 'test', level: 'error', write: () => {} });
const services: AnnouncedService[] = [
  { type: 'http', port: 3000, host: 'printyard-01234567.local', txt: { path: '/' } },
  { type: 'pyard-slicer', port: 8765, host: 'printyard-01234567.local', txt: {} },
];

test('a taken name is renamed for every service together; stop says goodbye and closes', async () => {
  const { responder, calls } = scriptedResponder((name) => name === 'Printyard Lab' || name === 'Printyard Lab (2)');
  const announcer = new MdnsAnnouncer({ responder, log, addressCheckMs: 0 });
  await announcer.announce({ name: 'Printyard Lab', services });
  assert.deepEqual(announcer.state(), {
    running: true,
    name: 'Printyard Lab (3)',
    note: 'announced as "Printyard Lab (3)" (_http._tcp, _pyard-slicer._tcp)',
  });
  assert.deepEqual(calls.slice(0, 4), [
    'publish http Printyard Lab',
    'publish pyard-slicer Printyard Lab',
    'withdraw http Printyard Lab',
    'withdraw pyard-slicer Printyard Lab',
  ]);
  calls.length = 0;
  await announcer.stop();
  assert.deepEqual(calls, ['withdraw http Printyard Lab (3)', 'withdraw pyard-slicer Printyard Lab (3)', 'close']);
  assert.equal(announcer.state().running, false);
});

test('when every variant is taken it says so instead of announcing', async () => {
  const { responder } = scriptedResponder(() => true);
  const announcer = new MdnsAnnouncer({ responder, log, addressCheckMs: 0 });
  await announcer.announce({ name: 'Printyard Lab', services: services.slice(0, 1) });
  assert.equal(announcer.state().running, false);
  assert.match(announcer.state().note, /no free name: "Printyard Lab" and 19 variants are in use/);
  await announcer.stop();
});

test('the newest set wins; the old name is withdrawn before the new one is published', async () => {
  const { responder, calls } = scriptedResponder(() => false);
  const announcer = new MdnsAnnouncer({ responder, log, addressCheckMs: 0 });
  const first = announcer.announce({ name: 'Printyard A', services: services.slice(0, 1) });
  const second = announcer.announce({ name: 'Printyard B', services: services.slice(0, 1) });
  const third = announcer.announce({ name: 'Printyard C', services: services.slice(0, 1) });
  await Promise.all([first, second, third]);
  assert.equal(announcer.state().name, 'Printyard C');
  const published = calls.filter((c) => c.startsWith('publish'));
  assert.ok(!published.includes('publish http Printyard B'), `B was overtaken before it went out: ${calls}`);
  assert.ok(calls.indexOf('withdraw http Printyard A') < calls.indexOf('publish http Printyard C'));
  await announcer.withdraw('switched off');
  assert.deepEqual(announcer.state(), { running: false, name: null, note: 'switched off' });
  await announcer.stop();
});
