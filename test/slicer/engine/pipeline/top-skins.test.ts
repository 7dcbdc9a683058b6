import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { box } from '../../../fixtures/meshes.js';
import { SKIN_PARTS } from '../../../fixtures/skin-parts.js';
import { cleanup, config, gcodeCheck, slice, writeStl } from '../../../fixtures/slicing.js';
import { GCODE_CHECKER, needsShared } from '../../../fixtures/shared.js';
import { topCover } from '../../../fixtures/top-cover.js';

/**
 * Every top surface of a curved or stepped part is covered: what the layer above leaves exposed
 * (one line width in from its edges) is printed over, with no open spot wider than this (mm; the
 * raster is 0.05 mm, so 0.1 mm gaps read as 0.1-0.14). Before the gap fill of top skins the dome,
 * lens and dish left crescents 0.25-0.3 mm wide and the steps triangles as wide.
 */
const WIDEST_GAP = 0.15;
/** What may stay open in all: the cusps between line ends along walls. */
const OPEN_SHARE = 0.02;

/** G-code of a 10 × 10 × 1 mm block: every layer lines along X 0.4 mm apart, 0.45 mm wide; `skip` drops rows of the top layer. */
function blockGcode(skip: (y: number) => boolean, type = 'Top solid infill'): string {
  const [w, h, filamentArea] = [0.45, 0.2, Math.PI * 0.875 ** 2];
  const e = (h * (w - h * (1 - Math.PI / 4)) * 10) / filamentArea;
  const out = ['M83'];
  for (let z = 0.2; z < 1.05; z += 0.2) {
    out.push(`G1 Z${z.toFixed(2)}`, `;TYPE:${z > 0.95 ? type : 'Solid infill'}`);
    for (let y = 0.2; y < 9.9; y += 0.4) {
      if (z > 0.95 && skip(y)) continue;
      out.push(`G0 X0 Y${y.toFixed(3)}`, `G1 X10 Y${y.toFixed(3)} E${e.toFixed(5)}`);
    }
  }
  return out.join('\n');
}

test('the top cover measure finds an open strip, and sparse infill counts as open', () => {
  const block = box(10, 10, 1);
  const full = topCover(
    block,
    blockGcode(() => false),
    { cell: 0.05 },
  );
  assert.ok(full.core > 60, `core ${full.core}`);
  assert.ok(full.uncovered < 0.01 * full.core && full.widestGap <= 0.15, JSON.stringify(full));
  const strip = topCover(
    block,
    blockGcode((y) => Math.abs(y - 5) < 0.1),
    { cell: 0.05 },
  );
  assert.ok(strip.widestGap > 0.3 && strip.widestGap < 0.6, `one row left out: ${strip.widestGap} mm wide`);
  assert.ok(strip.uncovered > 2 && strip.uncovered < 6, `${strip.uncovered} mm² open`);
  const sparse = topCover(
    block,
    blockGcode(() => false, 'Internal infill'),
    { cell: 0.05 },
  );
  assert.ok(sparse.uncovered > 0.9 * sparse.core, 'a top printed as sparse infill is open');
});

describe('top skins on curved and stepped tops', async () => {
  const cfg = await config();
  for (const part of SKIN_PARTS.filter((p) => p.skinTest)) {
    it(`${part.name} (${part.what}): every top surface is covered`, async (t) => {
      const mesh = part.mesh();
      const sliced = await slice(mesh, cfg);
      try {
        const cover = topCover(mesh, sliced.gcode, { cell: 0.05 });
        const worst = cover.layers.filter((l) => l.widestGap > WIDEST_GAP).map((l) => `z ${l.z}: ${l.widestGap.toFixed(2)} mm`);
        assert.ok(cover.core > 5, `the part has top surfaces to check (${cover.core.toFixed(1)} mm²)`);
        assert.deepEqual(worst, [], 'no open spot on a top surface is wider than a thin line');
        assert.ok(cover.uncovered <= OPEN_SHARE * cover.core, `${cover.uncovered.toFixed(2)} of ${cover.core.toFixed(1)} mm² open`);
        await t.test('the shared G-code checker finds every top covered', { skip: needsShared(GCODE_CHECKER) }, () => {
          const check = gcodeCheck(writeStl(sliced.dir, `${part.name}.stl`, mesh), sliced.result.outputPath);
          assert.equal(check.checks.top_cover, true, check.raw);
          // The checker passes a top from 85 %; the open crescents and corners took the dome to 93.5 %.
          assert.ok(Number(check.summary.top_cover_min) >= 0.97, check.raw);
        });
      } finally {
        cleanup(sliced);
      }
    });
  }
});
