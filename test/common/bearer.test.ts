import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearerMatches } from '../../appliance/common/bearer.js';

test('only the exact token in a Bearer header matches', () => {
  assert.equal(bearerMatches('Bearer s3cret', 's3cret'), true);
  assert.equal(bearerMatches('bearer s3cret', 's3cret'), true);
  assert.equal(bearerMatches('  Bearer   s3cret ', 's3cret'), true);
  assert.equal(bearerMatches('Bearer s3cre', 's3cret'), false);
  assert.equal(bearerMatches('Bearer s3cret2', 's3cret'), false);
  assert.equal(bearerMatches('Basic s3cret', 's3cret'), false);
  assert.equal(bearerMatches('s3cret', 's3cret'), false);
  assert.equal(bearerMatches(undefined, 's3cret'), false);
  assert.equal(bearerMatches('Bearer ', ''), false);
  assert.equal(bearerMatches('Bearer correct horse battery', 'correct horse battery'), true);
  assert.equal(bearerMatches('Bearer correct horse', 'correct horse battery'), false);
});
