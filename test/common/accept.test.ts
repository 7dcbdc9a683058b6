import assert from 'node:assert/strict';
import { test } from 'node:test';
import { negotiate } from '../../appliance/common/accept.js';

const OFFERS = ['text/event-stream', 'application/json'] as const;

test('the first offer answers a missing or wildcard Accept', () => {
  assert.equal(negotiate(undefined, OFFERS), 'text/event-stream');
  assert.equal(negotiate('', OFFERS), 'text/event-stream');
  assert.equal(negotiate('*/*', OFFERS), 'text/event-stream');
});

test('an explicit type wins over wildcards, and q-values order the choice', () => {
  assert.equal(negotiate('application/json', OFFERS), 'application/json');
  assert.equal(negotiate('application/json, */*;q=0.1', OFFERS), 'application/json');
  assert.equal(negotiate('text/event-stream', OFFERS), 'text/event-stream');
  assert.equal(negotiate('text/event-stream;q=0.5, application/json', OFFERS), 'application/json');
  assert.equal(negotiate('application/*', OFFERS), 'application/json');
  assert.equal(negotiate('text/*;q=0.9, application/json;q=0.2', OFFERS), 'text/event-stream');
});

test('nothing acceptable gives null', () => {
  assert.equal(negotiate('text/html', OFFERS), null);
  assert.equal(negotiate('application/json;q=0, text/html', OFFERS), null);
});
