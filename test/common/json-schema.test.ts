import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertSupportedSchema, validate } from '../../appliance/common/json-schema.js';

test('types, including a list of types and integers', () => {
  assert.deepEqual(validate({ type: 'integer' }, 1.5, 'v'), [{ path: 'v', message: 'must be an integer' }]);
  assert.deepEqual(validate({ type: ['string', 'null'] }, null, 'v'), []);
  assert.deepEqual(validate({ type: ['string', 'null'] }, 3, 'v'), [{ path: 'v', message: 'must be a string or null' }]);
  assert.deepEqual(validate({ type: 'number' }, Number.NaN, 'v'), [{ path: 'v', message: 'must be a number' }]);
  assert.deepEqual(validate({ type: 'object' }, [], 'v'), [{ path: 'v', message: 'must be an object' }]);
});

test('strings: length in characters, pattern, format uri', () => {
  const schema = { type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-zé]+$' };
  assert.deepEqual(validate(schema, 'éé', 'v'), []);
  assert.deepEqual(validate(schema, 'a', 'v'), [{ path: 'v', message: 'must be at least 2 characters long' }]);
  assert.deepEqual(validate(schema, 'abcd', 'v'), [{ path: 'v', message: 'must be at most 3 characters long' }]);
  assert.deepEqual(validate(schema, 'A1', 'v'), [{ path: 'v', message: 'must match the pattern ^[a-zé]+$' }]);
  assert.deepEqual(validate({ type: 'string', minLength: 1 }, '', 'v'), [{ path: 'v', message: 'must not be empty' }]);
  assert.deepEqual(validate({ type: 'string', format: 'uri' }, 'http://printer.local:8080/x', 'v'), []);
  assert.deepEqual(validate({ type: 'string', format: 'uri' }, 'printer.local', 'v'), [{ path: 'v', message: 'must be an absolute URI' }]);
});

test('numbers, enum and const', () => {
  assert.deepEqual(validate({ type: 'integer', minimum: 1, maximum: 5 }, 6, 'v'), [{ path: 'v', message: 'must be at most 5' }]);
  assert.deepEqual(validate({ type: 'number', exclusiveMinimum: 0 }, 0, 'v'), [{ path: 'v', message: 'must be above 0' }]);
  assert.deepEqual(validate({ type: 'number', exclusiveMinimum: 0 }, 0.1, 'v'), []);
  assert.deepEqual(validate({ enum: ['a', 1] }, 'b', 'v'), [{ path: 'v', message: 'must be one of "a", 1' }]);
  assert.deepEqual(validate({ const: { a: [1] } }, { a: [1] }, 'v'), []);
  assert.deepEqual(validate({ const: 'x' }, 'y', 'v'), [{ path: 'v', message: 'must be "x"' }]);
});

test('objects and arrays report nested paths', () => {
  const schema = {
    type: 'object',
    required: ['items'],
    additionalProperties: { type: 'number' },
    properties: {
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 2,
        items: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string' } } },
      },
    },
  };
  assert.deepEqual(validate(schema, { items: [{ id: 'a' }, { id: 2, x: 1 }], extra: 'no' }, 'body'), [
    { path: 'body/items/1/id', message: 'must be a string' },
    { path: 'body/items/1/x', message: 'is not an allowed property' },
    { path: 'body/extra', message: 'must be a number' },
  ]);
  assert.deepEqual(validate(schema, { items: [] }, 'body'), [{ path: 'body/items', message: 'must have at least 1 items' }]);
  assert.deepEqual(validate(schema, {}, 'body'), [{ path: 'body/items', message: 'is required' }]);
});

test('oneOf and anyOf: the closest branch explains a failure', () => {
  const printer = {
    oneOf: [
      { type: 'object', required: ['type', 'port'], properties: { type: { const: 'marlin-serial' }, port: { type: 'string' } } },
      { type: 'object', required: ['type', 'host'], properties: { type: { const: 'bambu-lan' }, host: { type: 'string' } } },
    ],
  };
  assert.deepEqual(validate(printer, { type: 'bambu-lan', host: 'x' }, 'body'), []);
  assert.deepEqual(validate(printer, { type: 'bambu-lan' }, 'body'), [{ path: 'body/host', message: 'is required' }]);
  assert.deepEqual(validate({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 3, 'v'), [
    { path: 'v', message: 'matches more than one of the allowed shapes' },
  ]);
  assert.deepEqual(validate({ anyOf: [{ type: 'number' }, { type: 'integer' }] }, 3, 'v'), []);
  assert.deepEqual(validate({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, true, 'v').length, 1);
});

test('unsupported keywords and formats are refused up front', () => {
  assert.throws(
    () => assertSupportedSchema({ type: 'object', properties: { a: { type: 'number', multipleOf: 2 } } }, 'x'),
    /x\.properties\.a: JSON Schema keyword "multipleOf"/,
  );
  assert.throws(() => assertSupportedSchema({ type: 'string', format: 'email' }, 'x'), /format "email"/);
  assertSupportedSchema({ type: 'string', description: 'documented', examples: ['a'] }, 'x');
});

test('format display-name refuses unsafe characters naming the code point, and whitespace-only names', () => {
  const schema = { type: 'string', minLength: 1, maxLength: 64, format: 'display-name' };
  assertSupportedSchema(schema, 'x');
  assert.deepEqual(validate(schema, 'P1S left 🖨️', 'body/name'), []);
  assert.deepEqual(validate(schema, 'evil\u202egpj', 'body/name'), [{ path: 'body/name', message: 'contains U+202E (right-to-left override)' }]);
  assert.deepEqual(validate(schema, 'a\u200db', 'body/name'), [{ path: 'body/name', message: 'contains U+200D (zero width joiner)' }]);
  assert.deepEqual(validate(schema, '  ', 'body/name'), [{ path: 'body/name', message: 'must not be only whitespace' }]);
  assert.deepEqual(validate(schema, 'x\u2029', 'body/name'), [{ path: 'body/name', message: 'contains U+2029 (paragraph separator)' }]);
});

test('a pattern is a Unicode pattern: code point escapes and astral characters work', () => {
  const schema = { type: 'string', pattern: '^[^\\u{202A}-\\u{202E}\\u{2066}-\\u{2069}]*$' };
  assert.deepEqual(validate(schema, '🐢 Bambu', 'v'), []);
  assert.equal(validate(schema, 'a\u202eb', 'v').length, 1);
  assert.deepEqual(validate({ type: 'string', pattern: '^.$' }, '🐢', 'v'), [], 'one astral character is one character');
});

test('formats of configuration values: http-url and short-duration', () => {
  const url = { type: 'string', format: 'http-url' };
  assert.deepEqual(validate(url, 'https://slicer.lan:8765', 'v'), []);
  assert.deepEqual(validate(url, 'ftp://x', 'v'), [{ path: 'v', message: 'must be an http:// or https:// URL' }]);
  assert.deepEqual(validate(url, 'slicer', 'v'), [{ path: 'v', message: 'must be an http:// or https:// URL' }]);
  const duration = { type: 'string', format: 'short-duration' };
  for (const ok of ['24h', '30m', '7d', '90 s', '1.5 hours', '2w']) assert.deepEqual(validate(duration, ok, 'v'), [], ok);
  for (const bad of ['forever', '0h', 'PT30M', '10'])
    assert.deepEqual(validate(duration, bad, 'v'), [{ path: 'v', message: 'must be a duration such as 30m, 24h or 7d' }], bad);
});

test('x- keywords annotate and are accepted anywhere', () => {
  assertSupportedSchema({ type: 'object', 'x-env-prefix': 'APP_', properties: { a: { type: 'string', 'x-secret': true, 'x-restart': true } } }, 'x');
  assert.deepEqual(validate({ type: 'integer', 'x-env': 'PORT' }, 3, 'v'), []);
});
