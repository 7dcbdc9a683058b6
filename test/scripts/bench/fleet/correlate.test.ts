import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadScript } from '../../../fixtures/load-script.js';

interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}
interface Group {
  received: number;
  matched: number;
  unmatched: number;
  reports: number;
  reportsShown: number;
  latency: Summary;
}
interface PublishLog {
  add(printer: string, key: string | null, at: number, info?: Record<string, unknown>): void;
  find(printer: string, key: string | null, at: number): { at: number; key: string } | null;
}
interface Correlate {
  PublishLog: new () => PublishLog;
  bambuKey(layer: unknown): string | null;
  temperatureKey(tool: number, bed: number): string | null;
  marlinLineKey(line: string): string | null;
  messageKey(kind: string, type: string, payload: unknown): string | null;
  correlate(
    log: PublishLog,
    messages: Array<{ kind: string; type: string; printer: string; key: string | null; at: number }>,
    window: { start: number; end: number; until?: number; kinds?: string[] },
  ): { groups: Record<string, Group>; reports: Record<string, number>; all: Summary };
}

const load = () => loadScript<Correlate>('scripts/bench/fleet/correlate.mjs');

test('keys: the Bambu layer and the Marlin temperature pair, read the same way on both sides', async () => {
  const c = await load();
  assert.equal(c.marlinLineKey(' T:25.20 /0.00 B:24.84 /60.00 @:0 B@:127'), '25.20 24.84');
  assert.equal(c.marlinLineKey('ok T:210.5 /210.00 B:60 /60.00 @:64 B@:20'), '210.50 60.00');
  assert.equal(c.marlinLineKey(' T:25.20 /0.00 B:24.84 /0.00 @:0 B@:0 W:?'), '25.20 24.84');
  assert.equal(c.marlinLineKey('echo:busy: processing'), null);
  assert.equal(c.marlinLineKey('X:0.00 Y:0.00 Z:0.00 E:0.00 Count X:0 Y:0 Z:0'), null);
  const status = { temperatures: { tool0: { actual: 210.5, target: 210 }, bed: { actual: 60, target: 60 } }, job: null };
  assert.equal(c.messageKey('marlin', 'printer.status', status), '210.50 60.00');
  assert.equal(c.messageKey('marlin', 'printer.status', { temperatures: {} }), null);
  assert.equal(c.messageKey('bambu', 'printer.status', { job: { layer: 17 } }), '17');
  assert.equal(c.messageKey('bambu', 'printer.status', { job: null }), null);
  assert.equal(c.messageKey('bambu', 'print.progress', { layer: 0 }), '0');
  assert.equal(c.messageKey('bambu', 'ams.update', {}), null);
  assert.equal(c.bambuKey(null), null);
});

test('a message matches the latest report of its printer with its key published before it arrived', async () => {
  const c = await load();
  const log = new c.PublishLog();
  log.add('A', '1', 100);
  log.add('B', '1', 150);
  log.add('A', '2', 200);
  log.add('A', '1', 300); // the print started over
  assert.equal(log.find('A', '1', 250)?.at, 100);
  assert.equal(log.find('A', '1', 300)?.at, 300);
  assert.equal(log.find('A', '2', 199), null, 'not a report published after the message arrived');
  assert.equal(log.find('B', '2', 1000), null);
  assert.equal(log.find('C', '1', 1000), null);
  assert.equal(log.find('A', null, 1000), null);
});

test('correlate counts per kind and event type inside the window and takes late messages of window reports', async () => {
  const c = await load();
  const log = new c.PublishLog();
  for (let i = 0; i < 10; i++) log.add('A', String(i), i * 1000, { kind: 'bambu' });
  log.add('M', '25.00 25.00', 2500, { kind: 'marlin' });
  const messages = [
    { kind: 'bambu', type: 'printer.status', printer: 'A', key: '1', at: 1005 }, // report before the window
    { kind: 'bambu', type: 'printer.status', printer: 'A', key: '2', at: 2004 },
    { kind: 'bambu', type: 'print.progress', printer: 'A', key: '2', at: 2600 },
    { kind: 'bambu', type: 'printer.status', printer: 'A', key: '3', at: 3010 },
    { kind: 'bambu', type: 'printer.status', printer: 'A', key: '4', at: 4002 }, // after the end, report inside
    { kind: 'bambu', type: 'printer.status', printer: 'A', key: '5', at: 5003 }, // report after the end
    { kind: 'bambu', type: 'printer.status', printer: 'A', key: null, at: 3500 }, // nothing to match
    { kind: 'marlin', type: 'printer.status', printer: 'M', key: '25.00 25.00', at: 2520 },
  ];
  const r = c.correlate(log, messages, { start: 2000, end: 4000 + 1, until: 6000, kinds: ['bambu', 'marlin'] });
  const status = r.groups['bambu printer.status'];
  assert.equal(status.received, 3);
  assert.equal(status.matched, 3);
  assert.equal(status.unmatched, 1);
  assert.equal(status.reports, 3);
  assert.equal(status.reportsShown, 3);
  assert.deepEqual(status.latency, { count: 3, p50: 4, p99: 10, max: 10 });
  assert.deepEqual(r.groups['bambu print.progress'].latency, { count: 1, p50: 600, p99: 600, max: 600 });
  assert.equal(r.groups['marlin printer.status'].matched, 1);
  assert.equal(r.groups['marlin printer.status'].latency.p50, 20);
  assert.deepEqual(r.reports, { bambu: 3, marlin: 1 });
  assert.equal(r.all.count, 5);
});
