import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger, formatLine } from '../../appliance/common/logger.js';
import { RAW_UNSAFE } from '../fixtures/bad-names.js';

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
  assert.deepEqual(lines, ['2025-03-07T09:05:03.000Z INFO  svc: shown\n', '2025-03-07T09:05:03.000Z ERROR svc/jobs: boom\n']);
  const quiet: string[] = [];
  createLogger({ name: 'q', level: 'error', write: (l) => quiet.push(l) }).warn('no');
  assert.deepEqual(quiet, []);
});

/** What a line may hold once written: printable characters and the final newline only. */
function assertOneVisibleLine(line: string): void {
  assert.equal(line.indexOf('\n'), line.length - 1, `one line: ${JSON.stringify(line)}`);
  assert.doesNotMatch(line.slice(0, -1), RAW_UNSAFE);
}

test('a message cannot forge a line, drive the terminal or hide text: unsafe characters become visible escapes', () => {
  const forged = 'printer added\n2026-01-01T00:00:00.000Z INFO  dashboard: admin logged in';
  const line = formatLine(AT, 'info', 'dashboard', forged);
  assertOneVisibleLine(line);
  assert.equal(line, '2025-03-07T09:05:03.000Z INFO  dashboard: printer added\\n2026-01-01T00:00:00.000Z INFO  dashboard: admin logged in\n');
  assert.equal(
    formatLine(AT, 'warn', 'x', 'clear \x1b[2J\x1b[H now\r\tdone'),
    '2025-03-07T09:05:03.000Z WARN  x: clear \\x1b[2J\\x1b[H now\\r\\tdone\n',
  );
  assert.equal(formatLine(AT, 'info', 'x', 'file evil\u202egpj.stl'), '2025-03-07T09:05:03.000Z INFO  x: file evil\\u202egpj.stl\n');
  assert.equal(
    formatLine(AT, 'info', 'x', 'a\u2028b\u2029c\u200bd\u2066e\u2069f\ufeffg\x7fh\x9bi\x00j\ud800k'),
    '2025-03-07T09:05:03.000Z INFO  x: a\\u2028b\\u2029c\\u200bd\\u2066e\\u2069f\\ufeffg\\x7fh\\x9bi\\x00j\\ud800k\n',
  );
  assert.equal(formatLine(AT, 'info', 'x', 'Café 🖨️ C:\\files "quoted"'), '2025-03-07T09:05:03.000Z INFO  x: Café 🖨️ C:\\files "quoted"\n');
});

test('field values and keys are escaped too; a value with one is quoted, with quotes and backslashes escaped', () => {
  const line = formatLine(AT, 'info', 'slicer/jobs', 'job queued', {
    model: 'evil\u202egpj.stl',
    name: 'x\n2026-01-01T00:00:00.000Z ERROR fake',
    ansi: '\x1b[31mred',
    path: 'C:\\models\\a.stl',
    said: 'he said "hi"',
    'k\ney': 1,
  });
  assertOneVisibleLine(line);
  assert.equal(
    line,
    '2025-03-07T09:05:03.000Z INFO  slicer/jobs: job queued model="evil\\u202egpj.stl" name="x\\n2026-01-01T00:00:00.000Z ERROR fake"' +
      ' ansi="\\x1b[31mred" path="C:\\\\models\\\\a.stl" said="he said \\"hi\\"" k\\ney=1\n',
  );
});

test("a logger name carrying a stored name (a printer's) is escaped like the message", () => {
  const lines: string[] = [];
  const log = createLogger({ name: 'dashboard', level: 'info', write: (l) => lines.push(l), now: () => AT });
  log.child('printer evil\n2026-01-01T00:00:00.000Z INFO  dashboard: forged (0123)').child('x\u202e').info('connected');
  assert.equal(lines.length, 1);
  assertOneVisibleLine(lines[0]);
  assert.equal(
    lines[0],
    '2025-03-07T09:05:03.000Z INFO  dashboard/printer evil\\n2026-01-01T00:00:00.000Z INFO  dashboard: forged (0123)/x\\u202e: connected\n',
  );
});
