import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configUsage, parseConfig, redactConfig, type ConfigSchema } from '../../appliance/common/config.js';

const SCHEMA = {
  rest_port: { type: 'integer', default: 8765, min: 0, max: 65535, help: 'port' },
  rest_token: { type: 'string', default: '', secret: true, help: 'token' },
  data_dir: { type: 'string', default: (env: Readonly<Record<string, string | undefined>>) => `${env.HOME ?? '/root'}/data`, inFile: false, help: 'dir' },
  threads: { type: 'integer', default: null, nullable: true, min: 0, help: 'threads' },
  ratio: { type: 'number', default: 1.5, above: 0, max: 10, help: 'ratio' },
  verbose: { type: 'boolean', default: false, help: 'chatty' },
  level: { type: 'enum', values: ['error', 'info'], default: 'info', help: 'level' },
} as const satisfies ConfigSchema;

const PREFIX = 'APP_';
const parse = (argv: string[] = [], env: Record<string, string> = {}, file?: unknown) =>
  parseConfig(SCHEMA, { argv, env, envPrefix: PREFIX, ...(file === undefined ? {} : { file: { name: 'app.json', values: file } }) });

test('defaults apply, including those computed from the environment', () => {
  const c = parse([], { HOME: '/home/pi' });
  assert.deepEqual(c, { rest_port: 8765, rest_token: '', data_dir: '/home/pi/data', threads: null, ratio: 1.5, verbose: false, level: 'info' });
});

test('the command line beats the environment, which beats the file', () => {
  const file = { rest_port: 1000, ratio: 2, verbose: true };
  assert.equal(parse([], {}, file).rest_port, 1000);
  assert.equal(parse([], { APP_REST_PORT: '2000' }, file).rest_port, 2000);
  assert.equal(parse(['--rest-port', '3000'], { APP_REST_PORT: '2000' }, file).rest_port, 3000);
  assert.equal(parse(['--rest-port=4000'], {}, file).rest_port, 4000);
  assert.equal(parse([], {}, file).ratio, 2);
  assert.equal(parse(['--no-verbose'], {}, file).verbose, false);
});

test('booleans, nullable integers and enums parse from text', () => {
  assert.equal(parse(['--verbose']).verbose, true);
  assert.equal(parse(['--verbose=false']).verbose, false);
  assert.equal(parse([], { APP_VERBOSE: 'yes' }).verbose, true);
  assert.equal(parse(['--threads', '4']).threads, 4);
  assert.equal(parse(['--threads', 'auto'], { APP_THREADS: '3' }).threads, null);
  assert.equal(parse(['--level', 'error']).level, 'error');
  assert.equal(parse(['--ratio', '0.25']).ratio, 0.25);
});

test('an empty environment variable counts as unset', () => {
  assert.equal(parse([], { APP_REST_PORT: '' }).rest_port, 8765);
});

test('errors name the key as the user wrote it', () => {
  const cases: Array<[() => unknown, RegExp]> = [
    [() => parse(['--rest-port', 'abc']), /^--rest-port: expected an integer from 0 to 65535, got "abc"$/],
    [() => parse(['--rest-port', '70000']), /--rest-port: expected an integer from 0 to 65535/],
    [() => parse(['--rest-port', '1.5']), /--rest-port/],
    [() => parse([], { APP_REST_PORT: '-1' }), /^APP_REST_PORT: expected an integer/],
    [() => parse([], {}, { rest_port: '8080' }), /^app.json: rest_port: expected an integer/],
    [() => parse([], {}, { rest_prot: 1 }), /^app.json: unknown key "rest_prot"/],
    [() => parse([], {}, { data_dir: '/x' }), /app.json: "data_dir" cannot be set in this file/],
    [() => parse([], {}, [1, 2]), /app.json: expected a JSON object/],
    [() => parse(['--rest-prot', '1']), /^unknown option --rest-prot$/],
    [() => parse(['--rest-port']), /^--rest-port: missing value/],
    [() => parse(['--rest-port', '--verbose']), /^--rest-port: missing value/],
    [() => parse(['stray']), /unexpected argument "stray"/],
    [() => parse(['--ratio', '0']), /--ratio: expected a number above 0 up to 10/],
    [() => parse(['--level', 'loud']), /--level: expected one of error, info/],
    [() => parse(['--verbose=maybe']), /--verbose: expected true or false/],
  ];
  for (const [run, message] of cases) {
    assert.throws(run, (err: Error & { code?: string; status?: number }) => {
      assert.match(err.message, message);
      assert.equal(err.code, 'ERR_INVALID_CONFIG');
      return true;
    });
  }
});

test('redaction shows only whether a secret is set', () => {
  assert.equal(redactConfig(SCHEMA, parse(['--rest-token', 's3cret'])).rest_token, '(set)');
  assert.equal(redactConfig(SCHEMA, parse()).rest_token, '(empty)');
  assert.equal(redactConfig(SCHEMA, parse()).rest_port, 8765);
});

test('usage lists every flag with its default and environment variable', () => {
  const text = configUsage(SCHEMA, PREFIX, { HOME: '/home/pi' });
  assert.match(text, /--rest-port VALUE\s+port \(default: 8765; env APP_REST_PORT\)/);
  assert.match(text, /--data-dir VALUE\s+dir \(default: \/home\/pi\/data; env APP_DATA_DIR\)/);
  assert.match(text, /--threads VALUE\s+threads \(default: auto;/);
  assert.match(text, /--verbose\s+chatty \(default: false;/);
  assert.match(text, /--level error\|info/);
  assert.doesNotMatch(text, /--rest-token VALUE\s+token \(default: \(set\)/);
});
