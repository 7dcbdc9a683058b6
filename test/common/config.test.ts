import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  configKeys,
  configUsage,
  documentIssues,
  envName,
  environmentValues,
  JSON_SCHEMA_DIALECT,
  parseConfig,
  redactConfig,
  type ConfigSchema,
} from '../../appliance/common/config.js';
import { assertSupportedSchema, validate } from '../../appliance/common/json-schema.js';

const SCHEMA = {
  $schema: JSON_SCHEMA_DIALECT,
  type: 'object',
  'x-env-prefix': 'APP_',
  additionalProperties: false,
  properties: {
    rest_port: { type: 'integer', minimum: 0, maximum: 65535, default: 8765, description: 'port' },
    rest_token: { type: 'string', default: '', 'x-secret': true, description: 'token' },
    data_dir: { type: 'string', 'x-file': false, description: 'dir' },
    threads: { type: ['integer', 'null'], minimum: 0, default: null, description: 'threads' },
    ratio: { type: 'number', exclusiveMinimum: 0, maximum: 10, default: 1.5, description: 'ratio' },
    verbose: { type: 'boolean', default: false, description: 'chatty' },
    level: { type: 'string', enum: ['error', 'info'], default: 'info', description: 'level' },
  },
} as const satisfies ConfigSchema;

type Env = Readonly<Record<string, string | undefined>>;
const folders = (env: Env) => ({ data_dir: `${env.HOME ?? '/root'}/data` });
const parse = (argv: string[] = [], env: Record<string, string> = {}, file?: unknown) =>
  parseConfig(SCHEMA, { argv, env, defaults: folders(env), ...(file === undefined ? {} : { file: { name: 'app.json', values: file } }) });

/** A file of sections, as the dashboard's config.json: keys applied at once and one that needs a restart. */
const SECTIONS = {
  $schema: JSON_SCHEMA_DIALECT,
  type: 'object',
  'x-env-prefix': 'PRINTYARD_DEMO_',
  additionalProperties: false,
  properties: {
    rate_limit: {
      type: 'object',
      description: 'limits',
      additionalProperties: false,
      properties: {
        per_minute: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'requests a minute' },
        enabled: { type: 'boolean', default: true, 'x-env': false, description: 'on' },
      },
    },
    server: {
      type: 'object',
      description: 'where it runs',
      additionalProperties: false,
      properties: {
        url: { type: 'string', format: 'http-url', default: 'http://127.0.0.1:1', 'x-env': 'DEMO_URL', description: 'address' },
        node_red_port: { type: 'integer', minimum: 1, maximum: 65535, default: 1880, 'x-restart': true, description: 'Node-RED port' },
      },
    },
  },
} as const satisfies ConfigSchema;

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
    [() => parse(['--threads', 'many']), /^--threads: expected an integer of at least 0, or "auto", got "many"$/],
    [() => parse([], {}, { rest_token: 42 }), /^app.json: rest_token: expected a string, got an invalid value$/],
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
  const text = configUsage(SCHEMA, { names: 'flags', defaults: folders({ HOME: '/home/pi' }), more: [['--help', 'this help']] });
  assert.match(text, /--rest-port VALUE\s+port \(default: 8765; env APP_REST_PORT\)/);
  assert.match(text, /--data-dir VALUE\s+dir \(default: \/home\/pi\/data; env APP_DATA_DIR\)/);
  assert.match(text, /--threads VALUE\s+threads \(default: auto;/);
  assert.match(text, /--verbose\s+chatty \(default: false;/);
  assert.match(text, /--level error\|info/);
  assert.match(text, /\n {2}--level error\|info {2}level .*\n {2}--help {14}this help$/, 'extra rows share the table');
  assert.doesNotMatch(text, /--rest-token VALUE\s+token \(default: \(set\)/);
});

test('one environment rule: the prefix and the key path in upper case, unless the schema names the variable or none', () => {
  const names = Object.fromEntries(configKeys(SECTIONS).map((key) => [key.name, envName(SECTIONS, key)]));
  assert.deepEqual(names, {
    'rate_limit.per_minute': 'PRINTYARD_DEMO_RATE_LIMIT_PER_MINUTE',
    'rate_limit.enabled': null,
    'server.url': 'DEMO_URL',
    'server.node_red_port': 'PRINTYARD_DEMO_SERVER_NODE_RED_PORT',
  });
  const env = { PRINTYARD_DEMO_RATE_LIMIT_PER_MINUTE: '50', DEMO_URL: 'https://x', PRINTYARD_DEMO_RATE_LIMIT_ENABLED: 'false' };
  assert.deepEqual(environmentValues(SECTIONS, env), { rate_limit: { per_minute: 50 }, server: { url: 'https://x' } });
  assert.throws(() => environmentValues(SECTIONS, { PRINTYARD_DEMO_RATE_LIMIT_PER_MINUTE: 'lots' }), {
    code: 'ERR_INVALID_CONFIG',
    message: 'PRINTYARD_DEMO_RATE_LIMIT_PER_MINUTE: expected an integer from 1 to 100, got "lots"',
  });
  assert.throws(() => environmentValues(SECTIONS, { DEMO_URL: 'ftp://x' }), {
    message: 'DEMO_URL: expected an http:// or https:// URL, got "ftp://x"',
  });
});

test('a key flagged x-restart says so in the usage; keys applied at once do not', () => {
  const text = configUsage(SECTIONS, { names: 'keys' });
  assert.match(text, /server\.node_red_port\s+Node-RED port \(default: 1880; env PRINTYARD_DEMO_SERVER_NODE_RED_PORT; needs a restart\)/);
  assert.match(text, /rate_limit\.per_minute\s+requests a minute \(default: 20; env PRINTYARD_DEMO_RATE_LIMIT_PER_MINUTE\)$/m);
  assert.match(text, /server\.url\s+address \(default: "http:\/\/127\.0\.0\.1:1"; env DEMO_URL\)/);
  assert.match(text, /rate_limit\.enabled\s+on \(default: true; env none\)/);
});

test('a document of sections is checked by the JSON Schema validator, each issue named by its key', () => {
  assert.deepEqual(documentIssues(SECTIONS, { rate_limit: { per_minute: 5 }, server: {} }), []);
  const issues = documentIssues(SECTIONS, { rate_limit: { per_minute: 0, burst: 1 }, server: 'x', theme: {} });
  assert.deepEqual(
    issues.map((i) => [i.kind, i.name]),
    [
      ['invalid', 'rate_limit.per_minute'],
      ['unknown', 'rate_limit.burst'],
      ['not-an-object', 'server'],
      ['unknown', 'theme'],
    ],
  );
  assert.deepEqual(issues[1].kind === 'unknown' && issues[1].known, ['per_minute', 'enabled']);
  assert.deepEqual(documentIssues(SECTIONS, 'text'), [{ kind: 'not-an-object', name: '' }]);
});

test('the schemas are JSON Schema the shared validator supports, and their defaults pass them', () => {
  for (const schema of [SCHEMA, SECTIONS]) assertSupportedSchema(schema, 'config');
  assert.deepEqual(validate(SECTIONS, { rate_limit: { per_minute: 20, enabled: true } }, ''), []);
  assert.deepEqual(validate(SCHEMA, parse(), ''), []);
});
