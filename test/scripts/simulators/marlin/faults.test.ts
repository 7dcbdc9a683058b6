import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FaultInjector, formatFaults, NO_FAULTS, parseFaults } from '../../../../scripts/simulators/marlin/faults.js';

test('fault specs are parsed; a typo or a bad rate is named', () => {
  assert.deepEqual(parseFaults('resend=0.05, checksum=0.02,drop=0.01,busy=0.1'), {
    ...NO_FAULTS,
    resend: 0.05,
    checksum: 0.02,
    drop: 0.01,
    busy: 0.1,
  });
  assert.deepEqual(parseFaults(''), NO_FAULTS);
  assert.throws(() => parseFaults('resnd=0.1'), /unknown fault "resnd"/);
  assert.throws(() => parseFaults('drop=2'), /fault drop: expected a rate from 0 to 1/);
  assert.throws(() => parseFaults('drop'), /expected drop=<rate/);
  assert.throws(() => parseFaults('drop=-0.1'), /expected drop=<rate/);
  assert.equal(formatFaults(parseFaults('busy=0.5')), 'busy=0.5');
  assert.equal(formatFaults(NO_FAULTS), 'none');
});

test('rate 0 never strikes, rate 1 always does', () => {
  const faults = new FaultInjector({ drop: 1 });
  for (let k = 0; k < 50; k++) {
    assert.equal(faults.strikes('drop'), true);
    assert.equal(faults.strikes('resend'), false);
  }
});

test('forced faults strike the next N times, then the rate decides again', () => {
  const faults = new FaultInjector();
  faults.force('checksum', 2);
  assert.deepEqual([faults.strikes('checksum'), faults.strikes('checksum'), faults.strikes('checksum')], [true, true, false]);
  assert.throws(() => faults.force('checksum', -1), RangeError);
});

test('the same seed gives the same decisions', () => {
  const a = new FaultInjector({ busy: 0.5 }, 42);
  const b = new FaultInjector({ busy: 0.5 }, 42);
  const run = (f: FaultInjector) => Array.from({ length: 100 }, () => f.strikes('busy'));
  const first = run(a);
  assert.deepEqual(first, run(b));
  const hits = first.filter(Boolean).length;
  assert.ok(hits > 20 && hits < 80, `about half: ${hits}`);
});

test('a bad change is refused and leaves the rates as they were', () => {
  const faults = new FaultInjector({ resend: 0.1 });
  assert.throws(() => faults.set({ resend: 0.2, drop: 3 }), /fault drop/);
  assert.equal(faults.rates.resend, 0.1);
  assert.throws(() => faults.set({ lightning: 1 } as never), /unknown fault "lightning"/);
});
