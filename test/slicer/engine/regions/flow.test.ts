import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bridgeFlow, crossSection, roleWidths, spacingOf, widthFor } from '../../../../appliance/slicer/engine/regions/flow.js';
import { defaultConfig } from '../../../../appliance/slicer/profiles/schema.js';

test('rounded-rectangle flow: 0.45 x 0.2 has 0.0814 mm² and spacing 0.407', () => {
  assert.ok(Math.abs(crossSection(0.45, 0.2) - 0.08142) < 1e-4);
  assert.ok(Math.abs(spacingOf(0.45, 0.2) - 0.40708) < 1e-4);
  assert.ok(Math.abs(crossSection(0.45, 0.2) - spacingOf(0.45, 0.2) * 0.2) < 1e-12);
});

test('thick bridges are round threads spaced 0.05 mm apart', () => {
  const b = bridgeFlow(0.4, 1, 0.2, true);
  assert.equal(b.width, 0.4);
  assert.ok(Math.abs(b.spacing - 0.45) < 1e-12);
  assert.ok(Math.abs(b.mm3PerMm - Math.PI * 0.04) < 1e-12);
});

test('percent widths are of the nozzle; zero falls back to the default line width', () => {
  const c = { ...defaultConfig(), line_width: 0.44 as const, outer_wall_line_width: '105%' as const, inner_wall_line_width: 0 as const };
  const w = roleWidths(c);
  assert.ok(Math.abs(w.outerWall - 0.42) < 1e-12);
  assert.equal(w.innerWall, 0.44);
  assert.equal(widthFor('inner-wall', w, true), w.firstLayer);
});
