import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertSupportedSchema, nestsDeeperThan, parameterValue, validate, validationError } from '../../../appliance/dashboard/http/validate.js';

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
  assert.deepEqual(validate({ enum: ['a', 1] }, 'b', 'v'), [{ path: 'v', message: 'must be one of "a", 1' }]);
  assert.deepEqual(validate({ const: { a: [1] } }, { a: [1] }, 'v'), []);
  assert.deepEqual(validate({ const: 'x' }, 'y', 'v'), [{ path: 'v', message: 'must be "x"' }]);
});

test('objects and arrays report nested paths', () => {
  const schema = {
    type: 'object', required: ['items'], additionalProperties: { type: 'number' },
    properties: { items: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string' } } } } },
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
  assert.deepEqual(validate({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 3, 'v'), [{ path: 'v', message: 'matches more than one of the allowed shapes' }]);
  assert.deepEqual(validate({ anyOf: [{ type: 'number' }, { type: 'integer' }] }, 3, 'v'), []);
  assert.deepEqual(validate({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, true, 'v').length, 1);
});

test('unsupported keywords and formats are refused up front', () => {
  assert.throws(() => assertSupportedSchema({ type: 'object', properties: { a: { type: 'number', multipleOf: 2 } } }, 'x'), /x\.properties\.a: JSON Schema keyword "multipleOf"/);
  assert.throws(() => assertSupportedSchema({ type: 'string', format: 'email' }, 'x'), /format "email"/);
  assertSupportedSchema({ type: 'string', description: 'documented', examples: ['a'] }, 'x');
});

test('parameter text converts to the schema type before the check', () => {
  assert.equal(parameterValue({ type: 'integer' }, '42'), 42);
  assert.equal(parameterValue({ type: 'integer' }, 'x'), 'x');
  assert.equal(parameterValue({ type: 'boolean' }, 'true'), true);
  assert.equal(parameterValue({ type: 'string' }, '42'), '42');
});

test('a validation error carries the issues as details', () => {
  const err = validationError([{ path: 'body/a', message: 'is required' }, { path: 'query/b', message: 'must be an integer' }]);
  assert.equal(err.status, 400);
  assert.equal(err.code, 'ERR_VALIDATION');
  assert.equal(err.message, 'body/a is required; query/b must be an integer');
  assert.equal((err.details as unknown[]).length, 2);
});

test('format display-name refuses unsafe characters naming the code point, and whitespace-only names', () => {
  const schema = { type: 'string', minLength: 1, maxLength: 64, format: 'display-name' };
  assertSupportedSchema(schema, 'x');
  assert.deepEqual(validate(schema, 'P1S left 🖨️', 'body/name'), []);
  assert.deepEqual(validate(schema, 'evil\u202egpj', 'body/name'), [{ path: 'body/name', message: 'contains U+202E (right-to-left override)' }]);
  assert.deepEqual(validate(schema, 'a\u200db', 'body/name'), [{ path: 'body/name', message: 'contains U+200D (zero width joiner)' }]);
  assert.deepEqual(validate(schema, '  ', 'body/name'), [{ path: 'body/name', message: 'must not be only whitespace' }]);
  assert.equal(validationError(validate(schema, 'x\u2029', 'body/name')).message, 'body/name contains U+2029 (paragraph separator)');
});

test('a pattern is a Unicode pattern: code point escapes and astral characters work', () => {
  const schema = { type: 'string', pattern: '^[^\\u{202A}-\\u{202E}\\u{2066}-\\u{2069}]*$' };
  assert.deepEqual(validate(schema, '🐢 Bambu', 'v'), []);
  assert.equal(validate(schema, 'a\u202eb', 'v').length, 1);
  assert.deepEqual(validate({ type: 'string', pattern: '^.$' }, '🐢', 'v'), [], 'one astral character is one character');
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
