import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger, formatLine } from '../../appliance/common/logger.js';

const AT = new Date('2025-03-07T09:05:03.000Z');

test('lines carry time, level, name, message and fields', () => {
  assert.equal(
    formatLine(AT, 'warn', 'slicer/jobs', 'job failed', { id: 'abc', code: 'ERR_X', reason: 'two words', n: 3, skip: undefined }),
    '2025-03-07T09:05:03.000Z WARN  slicer/jobs: job failed id=abc code=ERR_X reason="two words" n=3\n',
  );
});

test('entries below the level are dropped; children share the sink and extend the name', () => {
  const lines: string[] = [];
  const log = createLogger({ name: 'svc', level: 'info', write: (l) => lines.push(l), now: () => AT });
  log.debug('hidden');
  log.info('shown');
  log.child('jobs').error('boom');
  assert.deepEqual(lines, [
    '2025-03-07T09:05:03.000Z INFO  svc: shown\n',
    '2025-03-07T09:05:03.000Z ERROR svc/jobs: boom\n',
  ]);
  const quiet: string[] = [];
  createLogger({ name: 'q', level: 'error', write: (l) => quiet.push(l) }).warn('no');
  assert.deepEqual(quiet, []);
});
