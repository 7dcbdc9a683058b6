/**
 * The proof that a Clipper offset was event-free (`offset-events.ts`): a region's rings with their
 * edges moved match Clipper's offset point for point where no edge is lost and no ring splits or
 * merges, and do not match where one is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { offsetEx, xorEx } from '../../../../appliance/slicer/engine/geometry/clipper.js';
import { exArea } from '../../../../appliance/slicer/engine/geometry/polygon.js';
import type { ExPolygon } from '../../../../appliance/slicer/engine/geometry/types.js';
import { movedMatch, movedRing, movedRings } from '../../../../appliance/slicer/engine/regions/offset-events.js';

/** A ring of n points around (10, 10) at radius r, every other point `bump` further out, counter-clockwise or clockwise. */
function ring(n: number, r: number, bump: number, clockwise = false): Float64Array {
  const xy: number[] = [];
  for (let k = 0; k < n; k++) {
    const a = ((clockwise ? -1 : 1) * 2 * Math.PI * k) / n;
    const rr = r + (k % 2) * bump;
    xy.push(10 + rr * Math.cos(a), 10 + rr * Math.sin(a));
  }
  return Float64Array.from(xy);
}
/**
 * A scanned ring: `n` points around (10, 10) at radius `r`, each off by up to `jitter` in radius and
 * unevenly spaced (a fixed pseudo-random sequence), so that many corners turn by a few degrees only.
 */
function scanned(n: number, r: number, jitter: number, seed: number, clockwise = false): Float64Array {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const xy: number[] = [];
  for (let k = 0; k < n; k++) {
    const a = ((clockwise ? -1 : 1) * 2 * Math.PI * (k + 0.4 * random())) / n;
    const rr = r + jitter * (random() - 0.5);
    xy.push(10 + rr * Math.cos(a), 10 + rr * Math.sin(a));
  }
  return Float64Array.from(xy);
}
/** A ring with a hole, both with notches all round. */
const annulus: ExPolygon = { contour: ring(12, 8, 0.3), holes: [ring(8, 4, 0.2, true)] };
/** A plate with a slot 0.6 mm wide cut into it from the top, down to 1 mm above its bottom edge. */
const slotted: ExPolygon = { contour: Float64Array.of(0, 0, 10, 0, 10, 4, 5.3, 4, 5.3, 1, 4.7, 1, 4.7, 4, 0, 4), holes: [] };

describe('offset events', () => {
  it('finds an offset of a notched ring with a hole event-free, and its moved rings the same region', () => {
    for (const delta of [-0.2, -0.6, 0.3]) {
      const moved = movedRings([annulus], delta);
      assert.ok(moved);
      const clipper = offsetEx([annulus], delta);
      assert.equal(movedMatch(clipper, moved), 'same', `offset by ${delta}`);
      // Clipper's 0.1 µm grid along some 75 mm of outline.
      assert.ok(xorEx(moved, clipper).reduce((a, ex) => a + exArea(ex), 0) < 0.01);
    }
  });

  it('tells an offset in which edges vanish or rings merge', () => {
    const offset = (delta: number) => movedMatch(offsetEx([slotted], delta), movedRings([slotted], delta) ?? []) === 'same';
    assert.ok(offset(-0.35), 'inset, the slot widens');
    assert.equal(offset(-0.55), false, 'the 1 mm under the slot is gone: the plate splits in two');
    assert.ok(offset(0.25));
    assert.equal(offset(0.35), false, 'grown, the slot closes');
    // Two rings 2.7 mm apart stay two grown by 0.2 mm; grown by 1.6 mm they become one.
    const two = [annulus, { contour: ring(12, 1, 0).map((v, i) => (i % 2 === 0 ? v + 12 : v)), holes: [] }];
    assert.equal(movedMatch(offsetEx(two, 0.2), movedRings(two, 0.2) ?? []), 'same');
    assert.notEqual(movedMatch(offsetEx(two, 1.6), movedRings(two, 1.6) ?? []), 'same');
  });

  it("finds a scanned ring's insets event-free edge for edge where their corners slide along nearly straight turns", () => {
    const kinds = new Map<string, number>();
    for (let seed = 1; seed <= 20; seed++) {
      const part: ExPolygon = { contour: scanned(120, 9, 0.01, seed), holes: [scanned(90, 6, 0.01, seed + 100, true)] };
      for (const delta of [-0.4, -0.8]) {
        const moved = movedRings([part], delta);
        assert.ok(moved);
        const clipper = offsetEx([part], delta);
        const match = movedMatch(clipper, moved);
        assert.ok(match, `seed ${seed}, inset by ${-delta}: event-free`);
        kinds.set(match, (kinds.get(match) ?? 0) + 1);
        // Within 0.5 µm of each other along some 95 mm of outline.
        assert.ok(xorEx(moved, clipper).reduce((a, ex) => a + exArea(ex), 0) < 95 * 5e-4);
      }
    }
    assert.ok((kinds.get('along') ?? 0) > 20, 'most insets match only edge for edge');
  });

  it('tells events edge for edge too', () => {
    const match = (list: ExPolygon[], delta: number) => movedMatch(offsetEx(list, delta), movedRings(list, delta) ?? []);
    assert.equal(match([slotted], -0.55), null, 'the plate splits in two');
    assert.equal(match([slotted], 0.35), null, 'the slot closes');
    const two = [annulus, { contour: ring(12, 1, 0).map((v, i) => (i % 2 === 0 ? v + 12 : v)), holes: [] }];
    assert.equal(match(two, 1.6), null, 'the rings merge');
    // A scanned ring whose corners are moved 2 µm off Clipper's inset across the lines: no longer the same region.
    const part: ExPolygon = { contour: scanned(120, 9, 0.01, 7), holes: [] };
    const moved = movedRings([part], -0.4);
    assert.ok(moved);
    const clipper = offsetEx([part], -0.4);
    assert.ok(movedMatch(clipper, moved));
    const shifted = moved.map((ex) => ({ contour: ex.contour.map((v, i) => (i === 0 ? v + 2e-3 : v)), holes: [] }));
    assert.equal(movedMatch(clipper, shifted), null);
  });

  it('refuses corners sharper than the miter limit', () => {
    assert.equal(movedRing(Float64Array.of(0, 0, 10, 0, 0, 1), -0.1), null);
    assert.ok(movedRing(Float64Array.of(0, 0, 10, 0, 10, 10, 0, 10), -0.1));
  });
});
