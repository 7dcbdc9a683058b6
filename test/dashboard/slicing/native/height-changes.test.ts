/**
 * The dashboard's built-in slicing takes the slice form's `height_changes` as the slicer service
 * does: the G-code it answers sets the temperature at the asked height, and a malformed field is
 * a 400 naming it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { nativeSlicingFeature } from '../../../../appliance/dashboard/features.js';
import { type DashboardFixture, startDashboardFixture, TEST_TOKENS, testAuthenticator } from '../../../fixtures/dashboard.js';
import { gcodeLayers } from '../../../fixtures/gcode-layers.js';
import { MARLIN_JOB, postForm, sliceForm } from './slice-client.js';

let dash: DashboardFixture;

before(async () => {
  dash = await startDashboardFixture({
    features: [nativeSlicingFeature],
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
});
after(() => dash.cleanup());

test('POST /api/slicer/native/slice applies height_changes', async () => {
  const changes = [{ z_from: 2, setting: 'nozzle_temperature', value: 201 }];
  const response = await postForm(
    dash.url,
    '/api/slicer/native/slice',
    TEST_TOKENS.print,
    sliceForm('box.stl', { ...MARLIN_JOB, height_changes: JSON.stringify(changes) }),
  );
  assert.equal(response.status, 200, await response.clone().text());
  const layers = gcodeLayers(await response.text());
  assert.deepEqual(
    layers.filter((l) => l.setTemperatures.includes(201)).map((l) => l.bottom),
    [2],
  );
  assert.ok(layers.filter((l) => l.bottom >= 2).every((l) => l.temperatureAtFirstExtrusion === 201));
});

test('a malformed height_changes is a 400 naming the field', async () => {
  const bad = JSON.stringify([{ z_from: 'two', setting: 'nozzle_temperature', value: 201 }]);
  const response = await postForm(
    dash.url,
    '/api/slicer/native/slice',
    TEST_TOKENS.print,
    sliceForm('box.stl', { ...MARLIN_JOB, height_changes: bad }),
  );
  assert.equal(response.status, 400);
  assert.match(await response.text(), /height_changes.*z_from must be a number/);
});
