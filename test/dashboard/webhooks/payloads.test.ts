/**
 * The services' payloads as they send them, read into one event shape: Obico's older and newer
 * shapes and its bare test message, OctoEverywhere's integer EventType, SimplyPrint's
 * `{webhook_id, event, timestamp, data}`; malformed bodies refused with the path of the fault.
 * And the checks of verify.ts: constant-time secrets, signatures, the window, replays.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../appliance/common/errors.js';
import { parseJsonObject, readObico, readOctoEverywhere, readSimplyPrint } from '../../../appliance/dashboard/webhooks/payloads.js';
import {
  checkTimestamp,
  ReplayGuard,
  secretMatches,
  signatureMatches,
  signBody,
  VerifyFailure,
} from '../../../appliance/dashboard/webhooks/verify.js';
import { OBICO_NEW_FAILURE, OBICO_OLD_FAILURE, OBICO_TEST, OCTOEVERYWHERE_GADGET, SIMPLYPRINT_DONE } from './sample-payloads.js';

const json = (value: unknown) => parseJsonObject(Buffer.from(JSON.stringify(value)));

function refusedAt(fn: () => unknown, path: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof AppError && err.status === 400 && path.test(err.message));
}

test("Obico's older shape: the event is a name; a warning is not a failure", () => {
  const event = readObico(json(OBICO_OLD_FAILURE));
  assert.equal(event.kind, 'failure_detected');
  assert.equal(event.service_event, 'PrintFailure');
  assert.deepEqual(event.printer, { id: '7', name: 'Ender 3' });
  assert.equal(event.file, 'benchy.gcode');
  assert.equal(event.image_url, 'https://app.obico.io/media/tsd-pics/snapshots/7/latest.jpg');
  assert.match(event.message, /Obico paused the print/);
  assert.equal(readObico(json({ ...OBICO_OLD_FAILURE, is_warning: true })).kind, 'failure_warning');
});

test("Obico's newer shape: the event is {type, is_warning, print_paused}; other events carry only the type", () => {
  const event = readObico(json(OBICO_NEW_FAILURE));
  assert.equal(event.kind, 'failure_detected');
  assert.deepEqual(event.printer, { id: '7', name: 'Ender 3' });
  assert.equal(event.file, 'benchy.gcode');
  const done = readObico(json({ event: { type: 'PrintDone' }, printer: { id: 7, name: 'Ender 3' }, print: { id: 3, filename: 'a.gcode' } }));
  assert.equal(done.kind, 'print_done');
  assert.equal(done.image_url, null);
  assert.equal(readObico(json({ event: { type: 'HeaterCooledDown' }, printer: { id: 7, name: 'Ender 3' } })).kind, 'other');
});

test("Obico's test message is a bare name in both versions", () => {
  const event = readObico(json(OBICO_TEST));
  assert.equal(event.kind, 'test');
  assert.equal(event.printer, null);
});

test('OctoEverywhere: the integer EventType, the printer by id and name, the error text', () => {
  const event = readOctoEverywhere(json(OCTOEVERYWHERE_GADGET));
  assert.equal(event.kind, 'failure_detected');
  assert.equal(event.service_event, '8');
  assert.deepEqual(event.printer, { id: 'oe-printer-1', name: 'Ender3' });
  assert.equal(event.file, 'MyCoolPrint.gcode');
  assert.equal(event.image_url, 'https://octoeverywhere.com/snapshot/abc.jpg');
  assert.equal(readOctoEverywhere(json({ ...OCTOEVERYWHERE_GADGET, EventType: 2 })).kind, 'print_done');
  assert.equal(readOctoEverywhere(json({ ...OCTOEVERYWHERE_GADGET, EventType: 16 })).kind, 'test');
  assert.equal(readOctoEverywhere(json({ ...OCTOEVERYWHERE_GADGET, EventType: 99 })).kind, 'other');
});

test('SimplyPrint: the event name and the printer and job under data; the flat shape too', () => {
  const event = readSimplyPrint(json(SIMPLYPRINT_DONE));
  assert.equal(event.kind, 'print_done');
  assert.deepEqual(event.printer, { id: '4242', name: 'Prusa MK4' });
  assert.equal(event.file, 'bracket.gcode');
  const flat = readSimplyPrint(json({ event: 'print_failed', printer_id: '9', printer_name: 'P', filename: 'x.gcode' }));
  assert.equal(flat.kind, 'print_failed');
  assert.equal(flat.file, 'x.gcode');
  assert.equal(readSimplyPrint(json({ webhook_id: 1, event: 'test', timestamp: 1, data: {} })).kind, 'test');
});

test('malformed bodies are refused with where the fault is', () => {
  refusedAt(() => parseJsonObject(Buffer.from('{"event": ')), /not valid JSON/);
  refusedAt(() => parseJsonObject(Buffer.from('')), /is required/);
  refusedAt(() => parseJsonObject(Buffer.from('["PrintDone"]')), /must be a JSON object/);
  refusedAt(() => readObico({ event: 42 }), /body\/event/);
  refusedAt(() => readObico({ event: { type: 'PrintDone' }, printer: 'Ender' }), /body\/printer/);
  refusedAt(() => readOctoEverywhere({ EventType: 'done' }), /body\/EventType/);
  refusedAt(() => readSimplyPrint({ event: 'job.done', data: 'x' }), /body\/data/);
  refusedAt(() => readSimplyPrint({ data: {} }), /body\/event/);
});

test('secrets compare whole; signatures cover timestamp and body; the window; replays', () => {
  assert.equal(secretMatches('a-long-shared-secret', 'a-long-shared-secret'), true);
  assert.equal(secretMatches('a-long-shared-secre', 'a-long-shared-secret'), false);
  assert.equal(secretMatches('a-long-shared-secretX', 'a-long-shared-secret'), false);
  const body = Buffer.from('{"event":"job.done"}');
  const signature = signBody('k'.repeat(20), '1000', body);
  assert.equal(signatureMatches('k'.repeat(20), '1000', body, signature), true);
  assert.equal(signatureMatches('k'.repeat(20), '1000', body, `sha256=${signature.toUpperCase()}`), true);
  assert.equal(signatureMatches('k'.repeat(20), '1001', body, signature), false);
  assert.equal(signatureMatches('k'.repeat(20), '1000', Buffer.from('{"event":"job.failed"}'), signature), false);
  assert.equal(signatureMatches('x'.repeat(20), '1000', body, signature), false);

  const now = 1_800_000_000_000;
  checkTimestamp(String(now / 1000 - 299), now);
  checkTimestamp(String(now / 1000 + 299), now);
  const reason = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return err instanceof VerifyFailure ? err.reason : 'other';
    }
    return null;
  };
  assert.equal(
    reason(() => checkTimestamp(String(now / 1000 - 301), now)),
    'stale_timestamp',
  );
  assert.equal(
    reason(() => checkTimestamp(String(now / 1000 + 301), now)),
    'stale_timestamp',
  );
  assert.equal(
    reason(() => checkTimestamp('yesterday', now)),
    'bad_timestamp',
  );
  assert.equal(
    reason(() => checkTimestamp(undefined, now)),
    'bad_timestamp',
  );

  const guard = new ReplayGuard(1000);
  guard.admit('abc', now);
  assert.equal(
    reason(() => guard.admit('ABC', now + 500)),
    'replayed',
  );
  guard.admit('def', now + 2000);
  assert.equal(guard.size, 1, 'the old signature was forgotten after its window');
});
