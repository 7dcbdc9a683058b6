import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../../appliance/common/errors.js';
import { BackendUnavailableError } from '../../../../appliance/dashboard/slicing/backend.js';
import { asHttpError, RemoteUnavailableError, statusOfCode, upstreamError } from '../../../../appliance/dashboard/slicing/remote/errors.js';

const body = (error: string, code: string) => JSON.stringify({ error, code });

test("answers about the request keep the service's status, code and message", () => {
  for (const [status, code] of [
    [404, 'ERR_PROFILE_NOT_FOUND'],
    [415, 'ERR_UNSUPPORTED_MODEL'],
    [400, 'ERR_BAD_REQUEST'],
    [429, 'ERR_TOO_MANY_JOBS'],
    [500, 'ERR_SLICE_FAILED'],
  ] as const) {
    const err = upstreamError('slicing', status, body(`said ${code}`, code));
    assert.ok(err instanceof AppError, code);
    assert.deepEqual([err.status, err.code, err.message], [status, code, `said ${code}`]);
  }
  const opaque = upstreamError('the job list', 418, '<html>teapot</html>');
  assert.deepEqual([opaque instanceof AppError, (opaque as AppError).status, (opaque as AppError).code], [true, 418, 'ERR_SLICER_SERVICE']);
});

test('a refused token, 501 and gateway failures mean "unavailable": the chain moves on, the proxy says 503', () => {
  for (const status of [401, 403, 501, 502, 503, 504, 507]) {
    const err = upstreamError('slicing', status, body('no', 'ERR_X'));
    assert.ok(err instanceof RemoteUnavailableError && err instanceof BackendUnavailableError, String(status));
    assert.equal(err.backend, 'remote');
  }
  assert.equal(upstreamError('slicing', 501, '').message, 'the slicer service does not implement slicing (501)');
  const refused = upstreamError('slicing', 401, body('missing token', 'ERR_UNAUTHORIZED')) as RemoteUnavailableError;
  assert.equal(refused.message, "the slicer service refused the dashboard's token", 'the public reason');
  assert.match(refused.detail, /refused the dashboard's token for slicing: missing token \(ERR_UNAUTHORIZED\)/, 'the detail, for admins and the log');
  const http = asHttpError(new RemoteUnavailableError('gone')) as AppError;
  assert.deepEqual([http.status, http.code, http.message], [503, 'ERR_UNAVAILABLE', 'gone']);
  const kept = new AppError('ERR_X', 404, 'x');
  assert.equal(asHttpError(kept), kept);
});

test('error events carry no status: it comes from the code', () => {
  assert.deepEqual(['ERR_BAD_MODEL', 'ERR_PROFILE_NOT_FOUND', 'ERR_JOB_TIMEOUT', 'ERR_SOMETHING_NEW'].map(statusOfCode), [422, 404, 504, 500]);
  assert.deepEqual(['ERR_OUTPUT_TOO_LARGE', 'ERR_INSUFFICIENT_STORAGE'].map(statusOfCode), [422, 507]);
});
