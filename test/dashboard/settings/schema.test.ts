import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configKeys, envName } from '../../../appliance/common/config.js';
import { assertSupportedSchema, validate } from '../../../appliance/common/json-schema.js';
import { OPTIONS } from '../../../appliance/dashboard/options.js';
import { applyPatch, defaultSettings, redactSettings, SETTINGS_SCHEMA, settingsUsage } from '../../../appliance/dashboard/settings/schema.js';

const variables = (schema: typeof SETTINGS_SCHEMA | typeof OPTIONS) => new Map(configKeys(schema).map((key) => [key.name, envName(schema, key)]));

test('every key has its environment variable; the slicer switch has none', () => {
  const env = variables(SETTINGS_SCHEMA);
  assert.equal(env.get('rate_limit.per_minute'), 'PRINTYARD_DASHBOARD_RATE_LIMIT_PER_MINUTE');
  assert.equal(env.get('slicer_service.url'), 'SLICER_URL');
  assert.equal(env.get('slicer_service.token'), 'SLICER_TOKEN');
  assert.equal(env.get('slicer_service.enabled'), null);
});

test('the settings and the options of the dashboard share the prefix and no variable', () => {
  const names = [...variables(SETTINGS_SCHEMA).values(), ...variables(OPTIONS).values()].filter((name) => name !== null);
  assert.equal(new Set(names).size, names.length);
  assert.ok(
    names.every((name) => name.startsWith('PRINTYARD_DASHBOARD_') || name === 'SLICER_URL' || name === 'SLICER_TOKEN'),
    names.join(' '),
  );
});

test('the schema is JSON Schema the shared validator supports, and the defaults pass it', () => {
  assertSupportedSchema(SETTINGS_SCHEMA, 'settings');
  assert.deepEqual(validate(SETTINGS_SCHEMA, defaultSettings(), ''), []);
});

test('applyPatch replaces only the given keys and leaves its input alone', () => {
  const base = defaultSettings();
  const next = applyPatch(base, { rate_limit: { per_second: 3 } });
  assert.equal(next.rate_limit.per_second, 3);
  assert.equal(next.rate_limit.per_minute, 200);
  assert.equal(base.rate_limit.per_second, 20);
});

test('secrets are never shown', () => {
  const shown = redactSettings(applyPatch(defaultSettings(), { slicer_service: { token: 'hunter2' } }));
  assert.equal(shown.slicer_service.token, '(set)');
  assert.doesNotMatch(settingsUsage(), /hunter2/);
  assert.match(settingsUsage(), /slicer_service\.enabled .*env none/);
});
