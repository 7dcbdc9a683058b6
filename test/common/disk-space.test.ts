import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import { asStorageError, freeBytes, requireFreeSpace } from '../../appliance/common/disk-space.js';
import { AppError, ErrorCode } from '../../appliance/common/errors.js';

test('free space is what the file system reports for unprivileged writers', async () => {
  const free = await freeBytes(os.tmpdir());
  assert.ok(Number.isSafeInteger(free) && free > 0, String(free));
});

test('a margin the disk cannot keep is a 507 naming both amounts; no margin is no check', async () => {
  const free = await freeBytes(os.tmpdir());
  const margin = free + 1024 ** 4;
  await assert.rejects(requireFreeSpace(os.tmpdir(), margin, 'a new job'), (err: AppError) => {
    assert.equal(err.code, ErrorCode.insufficientStorage);
    assert.equal(err.status, 507);
    assert.match(err.message, /^not enough disk space for a new job: \d+ MB free, and \d+ MB must stay free$/);
    return true;
  });
  await requireFreeSpace('/nonexistent-printyard', 0, 'nothing');
  await requireFreeSpace(os.tmpdir(), 1, 'a new job');
  // Other processes write and delete meanwhile: a terabyte over what was free stays out of reach.
  await assert.rejects(requireFreeSpace(os.tmpdir(), 1, 'a big upload', free + 1024 ** 4), { code: ErrorCode.insufficientStorage });
});

test('a full disk or quota becomes a 507; other errors stay as they are', () => {
  for (const code of ['ENOSPC', 'EDQUOT']) {
    const mapped = asStorageError(Object.assign(new Error(`${code}: no space left on device, write`), { code }));
    assert.ok(mapped instanceof AppError);
    assert.equal(mapped.code, ErrorCode.insufficientStorage);
    assert.equal(mapped.status, 507);
    assert.match(mapped.message, /^the disk is full \(/);
  }
  const other = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
  assert.equal(asStorageError(other), other);
  assert.equal(asStorageError('text'), 'text');
  assert.equal(asStorageError(null), null);
});
