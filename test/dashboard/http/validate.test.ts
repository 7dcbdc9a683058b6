import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nestsDeeperThan, parameterValue, validationError } from '../../../appliance/dashboard/http/validate.js';

test('parameter text converts to the schema type before the check', () => {
  assert.equal(parameterValue({ type: 'integer' }, '42'), 42);
  assert.equal(parameterValue({ type: 'integer' }, 'x'), 'x');
  assert.equal(parameterValue({ type: 'boolean' }, 'true'), true);
  assert.equal(parameterValue({ type: 'string' }, '42'), '42');
});

test('a validation error carries the issues as details', () => {
  const err = validationError([
    { path: 'body/a', message: 'is required' },
    { path: 'query/b', message: 'must be an integer' },
  ]);
  assert.equal(err.status, 400);
  assert.equal(err.code, 'ERR_VALIDATION');
  assert.equal(err.message, 'body/a is required; query/b must be an integer');
  assert.equal((err.details as unknown[]).length, 2);
});

test('nesting depth counts objects and arrays, and any depth is measured without recursion', () => {
  assert.equal(nestsDeeperThan('text', 0), false);
  assert.equal(nestsDeeperThan({}, 1), false);
  assert.equal(nestsDeeperThan({ a: [1, { b: {} }] }, 4), false);
  assert.equal(nestsDeeperThan({ a: [1, { b: {} }] }, 3), true);
  const deep = JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000));
  assert.equal(nestsDeeperThan(deep, 64), true);
  assert.equal(nestsDeeperThan(JSON.parse('['.repeat(64) + ']'.repeat(64)), 64), false);
});
