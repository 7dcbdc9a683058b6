import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../appliance/common/errors.js';
import { mapError } from '../../appliance/common/http-errors.js';
import { createLogger } from '../../appliance/common/logger.js';

function logger() {
  const lines: string[] = [];
  return { lines, log: createLogger({ name: 't', level: 'debug', write: (l) => lines.push(l) }) };
}

test('an AppError keeps its code, status and message', () => {
  const { log } = logger();
  assert.deepEqual(mapError(new AppError('ERR_PROFILE_NOT_FOUND', 404, 'unknown profile "x"'), log), {
    status: 404,
    body: { error: 'unknown profile "x"', code: 'ERR_PROFILE_NOT_FOUND' },
    headers: {},
  });
});

test('429 and 503 tell the client when to retry', () => {
  const { log } = logger();
  assert.equal(mapError(new AppError('ERR_TOO_MANY_JOBS', 429, 'busy'), log).headers['retry-after'], '5');
  assert.equal(mapError(new AppError('ERR_SHUTTING_DOWN', 503, 'bye'), log).headers['retry-after'], '10');
});

test('anything else is an internal error, logged with its stack but not shown', () => {
  const { log, lines } = logger();
  const mapped = mapError(new TypeError('x is undefined'), log);
  assert.deepEqual(mapped.body, { error: 'internal error', code: 'ERR_INTERNAL' });
  assert.equal(mapped.status, 500);
  assert.match(lines.join(''), /ERROR t: unexpected error: TypeError: x is undefined/);
});

test('an AppError with a status outside 400..599 is answered as 500', () => {
  const { log } = logger();
  assert.equal(mapError(new AppError('ERR_X', 200, 'odd'), log).status, 500);
});

test('details are included only when the API asks for them', () => {
  const { log } = logger();
  const err = new AppError('ERR_VALIDATION', 400, 'body/name is required', [{ path: 'body/name', message: 'is required' }]);
  assert.deepEqual(mapError(err, log).body, { error: 'body/name is required', code: 'ERR_VALIDATION' });
  assert.deepEqual(mapError(err, log, { details: true }).body, {
    error: 'body/name is required',
    code: 'ERR_VALIDATION',
    details: [{ path: 'body/name', message: 'is required' }],
  });
  assert.deepEqual(mapError(new AppError('ERR_X', 409, 'x'), log, { details: true }).body, { error: 'x', code: 'ERR_X' });
});

test('given headers replace the defaults', () => {
  const { log } = logger();
  assert.deepEqual(mapError(new AppError('ERR_RATE_LIMITED', 429, 'slow down'), log, { headers: { 'retry-after': '17' } }).headers, {
    'retry-after': '17',
  });
});
