/**
 * The farm's parametric generators (cable clip, hook, spool holder, retraction test): each is the
 * size asked for, has the features its parameters name, and refuses parameters that do not fit
 * together with a reason. generators.test.ts checks that every one is a closed, manifold solid
 * and slices; calibration-slicing.test.ts slices the calibration pieces with their changes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generatorById } from '../../../appliance/dashboard/model-generation/generators/catalogue.js';
import { withDefaults } from '../../../appliance/dashboard/model-generation/generators/generator.js';
import type { SolidMesh } from '../../../appliance/dashboard/model-generation/geometry/manifold.js';
import { assertSolid, generate } from '../../fixtures/solid-facts.js';

const near = (actual: number, expected: number, tolerance = 0.01) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);

/** The vertices shifted so that the mesh's bounding box starts at the origin. */
function fromCorner(mesh: SolidMesh): [number, number, number][] {
  const v = mesh.vertices;
  const min = [0, 1, 2].map((axis) => Math.min(...v.filter((_, i) => i % 3 === axis)));
  const points: [number, number, number][] = [];
  for (let i = 0; i < v.length; i += 3) points.push([v[i] - min[0], v[i + 1] - min[1], v[i + 2] - min[2]]);
  return points;
}

function refusal(id: string, body: Record<string, unknown>): string | null {
  const generator = generatorById(id);
  assert.ok(generator?.check, id);
  return generator.check(withDefaults(generator.schema, body));
}

describe('cable clip', () => {
  test('is as long as its rings and tabs, as deep as a cable and two walls less the opening, as wide as asked', async () => {
    const params = { cable_diameter: 6, cable_count: 3, wall: 2, width: 12, mount: 'screw', screw_diameter: 3.5, snap_opening: 0.8 };
    const facts = assertSolid((await generate('cable-clip', params)).mesh);
    // Rings: 3 cables at a pitch of cable + wall, plus a wall each side; tabs: screw + 2 × 2.5 each.
    near(facts.size[0], 2 * 8 + 6 + 4 + 2 * 8.5);
    // The slot cuts the ring's top: its lips stand at the height where the ring meets the slot, less their rounding.
    const lipTop = 2 + 3 + Math.sqrt(5 ** 2 - 2.4 ** 2);
    assert.ok(facts.size[1] <= lipTop && facts.size[1] > lipTop - 0.5, `${facts.size[1]} vs ${lipTop}`);
    near(facts.size[2], 12);
  });

  test('each cable snaps through an opening narrower than itself, into a round seat of its diameter', async () => {
    const mesh = (await generate('cable-clip', { cable_count: 1, cable_diameter: 8, wall: 2, mount: 'adhesive', snap_opening: 0.75 })).mesh;
    const points = fromCorner(mesh);
    const centreX = Math.max(...points.map((p) => p[0])) / 2;
    // The inner wall of the seat: vertices 4 mm from the cable's centre (y = wall + radius).
    const seat = points.filter((p) => Math.abs(Math.hypot(p[0] - centreX, p[1] - 6) - 4) < 1e-3);
    assert.ok(seat.length > 20, `the seat is round: ${seat.length} points on its circle`);
    // The opening: above the cable's centre the lips are 0.75 × 8 = 6 mm apart, and nowhere closer.
    const gap = points.filter((p) => p[1] > 6 + 0.1).map((p) => Math.abs(p[0] - centreX));
    near(Math.min(...gap) * 2, 6, 1e-3);
  });

  test('an adhesive clip has no holes and a plain flat back; a screw clip has a hole through each tab', async () => {
    const adhesive = fromCorner((await generate('cable-clip', { mount: 'adhesive' })).mesh);
    const screw = fromCorner((await generate('cable-clip', { mount: 'screw', screw_diameter: 3 })).mesh);
    const onBack = (points: [number, number, number][]) => points.filter((p) => Math.abs(p[1]) < 1e-4).length;
    assert.equal(onBack(adhesive), 4, 'the back is one rectangle');
    assert.ok(onBack(screw) > 4 + 2 * 30, `two round holes break the back: ${onBack(screw)} corners`);
    // Each hole in the middle of its tab (3 + 2 × 2.5 mm long) and of the clip's width (10 mm): 1.5 mm round below its centre,
    // and its teardrop tip 1.5·√2 above, towards +z, up in print.
    const length = Math.max(...screw.map((p) => p[0]));
    for (const centreX of [4, length - 4]) {
      const rim = screw.filter((p) => Math.abs(p[1]) < 1e-4 && Math.abs(p[0] - centreX) < 2);
      near(Math.min(...rim.map((p) => p[2])), 5 - 1.5, 1e-3);
      near(Math.max(...rim.map((p) => p[2])), 5 + 1.5 * Math.SQRT2, 1e-3);
    }
  });

  test('refuses a clip narrower than its screw holes', () => {
    assert.match(refusal('cable-clip', { width: 4, screw_diameter: 4 }) ?? '', /wider than its screw holes/);
    assert.equal(refusal('cable-clip', { width: 4, screw_diameter: 4, mount: 'adhesive' }), null);
  });
});

describe('hook', () => {
  test('is as deep as the arm and two thicknesses, as high as the plate, as wide as asked', async () => {
    const facts = assertSolid((await generate('hook', { thickness: 6, arm_length: 30, plate_height: 70, width: 25 })).mesh);
    near(facts.size[0], 6 + 30 + 6);
    near(facts.size[1], 70);
    near(facts.size[2], 25);
  });

  test('its screw holes are countersunk at the front, above the lip, with a teardrop top for printing on its side', async () => {
    const model = await generate('hook', { thickness: 5, hook_depth: 12, screw_count: 2, screw_diameter: 4, screw_head_diameter: 8 });
    const heights = model.notes?.screw_heights_mm as number[];
    assert.equal(heights.length, 2);
    assert.ok(heights[0] - 4 > 5 + 12, `the lowest head clears the lip: ${heights}`);
    const points = fromCorner(model.mesh);
    const widthCentre = 10;
    const around = (y: number, xFrom: number, xTo: number) => points.filter((p) => Math.abs(p[1] - y) < 1e-3 && p[0] > xFrom && p[0] < xTo);
    for (const y of heights) {
      // In the plate behind the countersink: the shank, from 2 below its centre to the tip 2·√2 above.
      const shank = around(y, -0.01, 2.99).map((p) => p[2] - widthCentre);
      near(Math.min(...shank), -2, 1e-3);
      near(Math.max(...shank), 2 * Math.SQRT2, 1e-3);
      // At the front face the countersink is the head's width.
      const face = around(y, 4.99, 5.01).map((p) => p[2] - widthCentre);
      near(Math.min(...face), -4, 1e-3);
    }
  });

  test('refuses screws that do not fit above the lip, or a countersink deeper than the plate', () => {
    assert.match(refusal('hook', { plate_height: 30, hook_depth: 20 }) ?? '', /at least \d+(\.\d)? mm/);
    assert.match(refusal('hook', { thickness: 3, screw_head_diameter: 10 }) ?? '', /countersink/);
    assert.match(refusal('hook', { screw_head_diameter: 4, screw_diameter: 4 }) ?? '', /wider than its shank/);
  });
});

describe('spool holder', () => {
  test('is as high as its base, the spool length and the lip, with a spindle the bore less the clearance', async () => {
    const model = await generate('spool-holder', { bore_diameter: 55, clearance: 2, length: 70, lip: 3, base_thickness: 5, base_size: 90 });
    const facts = assertSolid(model.mesh);
    near(facts.size[0], 90);
    near(facts.size[2], 5 + 70 + 3 + 2);
    assert.equal(model.notes?.spindle_diameter_mm, 53);
    // Along the spindle (from the hollow's floor to the lip), its outside is 53 mm across and its hollow inside 53 − 2 × 3.
    const points = fromCorner(model.mesh);
    const radii = points.filter((p) => p[2] > 5.5 && p[2] < 75.5).map((p) => Math.hypot(p[0] - 45, p[1] - 45));
    near(Math.max(...radii), 26.5, 0.02);
    near(Math.min(...radii), 23.5, 0.02);
  });

  test('the lip flares out at 45° and the base has four countersunk holes', async () => {
    const points = fromCorner((await generate('spool-holder', { lip: 4, length: 60 })).mesh);
    const rim = points.filter((p) => p[2] > 5 + 60 + 4 - 1e-3).map((p) => Math.hypot(p[0] - 45, p[1] - 45));
    near(Math.max(...rim), 26.5 + 4, 0.02);
    // The flare: the spindle's radius where the lip starts, 4 mm more 4 mm higher.
    const outside = (z: number) => Math.max(...points.filter((p) => Math.abs(p[2] - z) < 1e-3).map((p) => Math.hypot(p[0] - 45, p[1] - 45)));
    near(outside(5 + 60), 26.5, 0.02);
    near(outside(5 + 60 + 4), 30.5, 0.02);
    // Four holes 39 mm from the centre along x and y (the plate's edge less 2 mm and the head's radius):
    // 8 mm across on the top face (the countersink), 4 mm on the bed (the shank).
    for (const [sx, sy] of [
      [-1, -1],
      [1, -1],
      [-1, 1],
      [1, 1],
    ]) {
      const around = (z: number) =>
        points.filter((p) => Math.abs(p[2] - z) < 1e-3).map((p) => Math.hypot(p[0] - (45 + 39 * sx), p[1] - (45 + 39 * sy)));
      assert.ok(around(5).filter((r) => Math.abs(r - 4) < 0.01).length >= 32, `countersink at ${sx},${sy}`);
      assert.ok(around(0).filter((r) => Math.abs(r - 2) < 0.01).length >= 32, `shank at ${sx},${sy}`);
    }
  });

  test('a 75 mm bore fits the default base; too small a base or bore is refused with the size needed', () => {
    assert.equal(refusal('spool-holder', { bore_diameter: 75, base_size: 90 }), null);
    assert.match(refusal('spool-holder', { bore_diameter: 75, base_size: 70 }) ?? '', /at least 75 mm/);
    assert.match(refusal('spool-holder', { bore_diameter: 20, clearance: 6, spindle_wall: 6 }) ?? '', /no room for a hollow spindle/);
  });
});

describe('retraction test', () => {
  test('has one band per value, each starting at its height, with the changes a slice request takes', async () => {
    const model = await generate('retraction-test', { towers: 2, bands: 4, band_height: 5, start_length: 0.5, length_step: 0.5, tower_distance: 30 });
    const facts = assertSolid(model.mesh);
    near(facts.size[2], 1 + 4 * 5);
    near(facts.size[0], 30 + 8 + 2 * 4);
    assert.deepEqual(model.notes?.retraction_bands, [
      { from_z_mm: 1, retraction_length_mm: 0.5 },
      { from_z_mm: 6, retraction_length_mm: 1 },
      { from_z_mm: 11, retraction_length_mm: 1.5 },
      { from_z_mm: 16, retraction_length_mm: 2 },
    ]);
    assert.deepEqual(model.notes?.height_changes, [
      { z_from: 1, setting: 'retraction_length', value: 0.5 },
      { z_from: 6, setting: 'retraction_length', value: 1 },
      { z_from: 11, setting: 'retraction_length', value: 1.5 },
      { z_from: 16, setting: 'retraction_length', value: 2 },
    ]);
    // A V-groove marks each band's start on the towers: vertices 0.5 mm inside the tower's radius there.
    const points = fromCorner(model.mesh);
    for (const z of [6, 11, 16])
      assert.ok(points.some((p) => Math.abs(p[2] - z) < 1e-3 && Math.abs(Math.hypot(p[0] - 4 - 4, p[1] - 8) - 3.5) < 1e-2));
  });

  test('varies the speed instead when asked', async () => {
    const model = await generate('retraction-test', { vary: 'speed', bands: 3, start_speed: 25, speed_step: 15 });
    assert.deepEqual(model.notes?.height_changes, [
      { z_from: 1, setting: 'retraction_speed', value: 25 },
      { z_from: 6, setting: 'retraction_speed', value: 40 },
      { z_from: 11, setting: 'retraction_speed', value: 55 },
    ]);
  });

  test('refuses towers too close to retract between, or values past the top of the range', () => {
    assert.match(refusal('retraction-test', { tower_diameter: 10, tower_distance: 15 }) ?? '', /10 mm apart/);
    assert.match(refusal('retraction-test', { bands: 12, start_length: 10, length_step: 3 }) ?? '', /at most 15/);
    assert.match(refusal('retraction-test', { vary: 'speed', bands: 12, start_speed: 150, speed_step: 50 }) ?? '', /at most 200/);
  });
});

test('the temperature tower gives its temperatures as height changes too', async () => {
  const model = await generate('temperature-tower', { start_temperature: 210, end_temperature: 200, step: 5, block_height: 10 });
  assert.deepEqual(model.notes?.height_changes, [
    { z_from: 1, setting: 'nozzle_temperature', value: 210 },
    { z_from: 11, setting: 'nozzle_temperature', value: 205 },
    { z_from: 21, setting: 'nozzle_temperature', value: 200 },
  ]);
});
