import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch, defaultSettings, envVariable, redactSettings, SETTINGS_SCHEMA, settingsUsage } from '../../../appliance/dashboard/settings/schema.js';

test('every key has its environment variable; the slicer switch has none', () => {
  assert.equal(envVariable('rate_limit', 'per_minute', SETTINGS_SCHEMA.rate_limit.per_minute), 'PRINTYARD_RATE_LIMIT_PER_MINUTE');
  assert.equal(envVariable('slicer_service', 'url', SETTINGS_SCHEMA.slicer_service.url), 'SLICER_URL');
  assert.equal(envVariable('slicer_service', 'token', SETTINGS_SCHEMA.slicer_service.token), 'SLICER_TOKEN');
  assert.equal(envVariable('slicer_service', 'enabled', SETTINGS_SCHEMA.slicer_service.enabled), null);
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
