/**
 * The sketch generator's parts: SVG path data flattened (every command, absolute and relative,
 * curves within the tolerance, arcs by the SVG rules), polygon checks (crossings, holes), and the
 * extruded solids (fill rules, holes, chamfered and rounded edges, scaling) — closed, manifold and
 * of the size and volume asked for.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { manifoldKernel } from '../../../appliance/dashboard/model-generation/geometry/manifold.js';
import { firstCrossing, insidePolygon, signedArea } from '../../../appliance/dashboard/model-generation/geometry/polygons.js';
import { parseTransform, svgDocumentShapes } from '../../../appliance/dashboard/model-generation/geometry/svg-document.js';
import { flattenPath, PathSyntaxError, type Point } from '../../../appliance/dashboard/model-generation/geometry/svg-path.js';
import { withDefaults } from '../../../appliance/dashboard/model-generation/generators/generator.js';
import { sketchGenerator } from '../../../appliance/dashboard/model-generation/generators/sketch.js';
import { assertSolid } from '../../fixtures/solid-facts.js';

const close = (actual: number, expected: number, within: number, what = '') =>
  assert.ok(Math.abs(actual - expected) <= within, `${what} ${actual} is not within ${within} of ${expected}`);

function samePoints(actual: Point[], expected: Point[]): void {
  assert.equal(actual.length, expected.length, JSON.stringify(actual));
  actual.forEach((p, k) => {
    close(p[0], expected[k][0], 1e-9, `x of point ${k}`);
    close(p[1], expected[k][1], 1e-9, `y of point ${k}`);
  });
}

describe('SVG path data is flattened to closed polygons', () => {
  const square: Point[] = [
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
  ];

  test('lines: absolute, relative, H/V and repeated arguments after a moveto give the same square', () => {
    for (const d of ['M0 0 L10 0 L10 10 L0 10 Z', 'm0 0 l10 0 0 10 -10 0z', 'M0,0 H10 V10 H0 z', 'M0 0 h10 v10 h-10 Z', 'M0 0 10 0 10 10 0 10']) {
      const polygons = flattenPath(d, 0.1);
      assert.equal(polygons.length, 1, d);
      samePoints(polygons[0], square);
    }
  });

  test('numbers run together as the grammar allows', () => {
    samePoints(flattenPath('M.5.5L10-5-3e1 2E0z', 0.1)[0], [
      [0.5, 0.5],
      [10, -5],
      [-30, 2],
    ]);
  });

  test('several subpaths; a relative moveto after Z starts from the closed subpath start; open subpaths close', () => {
    const polygons = flattenPath('M0 0h10v10h-10z m2 2 h2 v2 h-2 M20 0 l5 0 0 5', 0.1);
    assert.equal(polygons.length, 3);
    samePoints(polygons[1], [
      [2, 2],
      [4, 2],
      [4, 4],
      [2, 4],
    ]);
    samePoints(polygons[2], [
      [20, 0],
      [25, 0],
      [25, 5],
    ]);
  });

  test('a circle of two arcs stays within the tolerance of the circle', () => {
    const tolerance = 0.01;
    const [circle] = flattenPath('M-5 0 A5 5 0 0 1 5 0 A5 5 0 0 1 -5 0Z', tolerance);
    for (const [x, y] of circle) close(Math.hypot(x, y), 5, 1e-9, 'vertex radius');
    for (let k = 0; k < circle.length; k++) {
      const [a, b] = [circle[k], circle[(k + 1) % circle.length]];
      const sagitta = 5 - Math.hypot((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      assert.ok(sagitta <= tolerance + 1e-9, `chord ${k} strays ${sagitta}`);
    }
    close(Math.abs(signedArea(circle)), Math.PI * 25, 2 * Math.PI * 5 * tolerance, 'area');
  });

  test('arc flags: sweep picks the side, large-arc the longer way, radii too small are scaled up, flags may be packed', () => {
    const [upper] = flattenPath('M0 0 A5 5 0 0 1 10 0', 0.05);
    assert.ok(upper.slice(1).every(([, y]) => y <= 1e-9) && Math.min(...upper.map(([, y]) => y)) < -4.9, 'sweep 1 turns through negative y');
    const [lower] = flattenPath('M0 0 A5 5 0 0 0 10 0', 0.05);
    assert.ok(Math.max(...lower.map(([, y]) => y)) > 4.9);
    const [small] = flattenPath('M0 0 A1 1 0 0 1 10 0', 0.05);
    for (const [x, y] of small) close(Math.hypot(x - 5, y), 5, 1e-9, 'scaled radius');
    const [large] = flattenPath('M0 0 A10 10 0 1 1 10 0', 0.05);
    const [short] = flattenPath('M0 0 A10 10 0 0 1 10 0', 0.05);
    assert.ok(Math.abs(signedArea(large)) > 10 * Math.abs(signedArea(short)), 'the large arc goes the long way round');
    samePoints(flattenPath('M0 0a5 5 0 1010 0', 0.05)[0], flattenPath('M0 0 a5 5 0 1 0 10 0', 0.05)[0]);
    const [tilted] = flattenPath('M0 0 A5 10 90 0 1 0 10', 0.05);
    close(
      Math.max(...tilted.map(([x]) => Math.abs(x))),
      10,
      0.05,
      'rotated 90°: the chord is the x radius (5) turned along y, the bulge the y radius',
    );
  });

  test('cubic and quadratic curves stay within the tolerance; S and T mirror the previous control point', () => {
    const tolerance = 0.02;
    const [c] = flattenPath('M0 0 C0 10 10 10 10 0', tolerance);
    const bezier = (t: number): Point => {
      const u = 1 - t;
      return [3 * u * t * t * 10 + t * t * t * 10, 3 * u * u * t * 10 + 3 * u * t * t * 10];
    };
    const n = c.length - 1;
    for (let k = 0; k < n; k++) {
      const [a, b] = [c[k], c[k + 1]];
      const [mx, my] = bezier((k + 0.5) / n);
      const distance = Math.abs((b[0] - a[0]) * (a[1] - my) - (a[0] - mx) * (b[1] - a[1])) / Math.hypot(b[0] - a[0], b[1] - a[1]);
      assert.ok(distance <= tolerance, `chord ${k} strays ${distance}`);
    }
    const [s] = flattenPath('M0 0 C0 10 10 10 10 0 S20 -10 20 0', 0.01);
    close(Math.min(...s.map(([, y]) => y)), -7.5, 0.01, 'S mirrors (10, 10) to (10, -10)');
    const [t] = flattenPath('m0 0 q5 10 10 0 t10 0', 0.01);
    close(Math.max(...t.map(([, y]) => y)), 5, 0.01, 'the Q bulges to y = 5');
    close(Math.min(...t.map(([, y]) => y)), -5, 0.01, 'T mirrors it');
    const [plainS] = flattenPath('M0 0 L10 0 S20 10 20 0', 0.01);
    assert.ok(
      plainS.every(([, y]) => y >= -1e-9),
      'S after a line takes the current point as its first control point',
    );
  });

  test('syntax errors name the place', () => {
    const bad: [string, RegExp][] = [
      ['L10 10', /moveto/],
      ['M0 0 L', /number was expected at character 6/],
      ['M0 0 X5', /unknown path command "X"/],
      ['M0 0 A5 5 0 2 0 10 0', /arc flag/],
      ['M0 0 L10 0 10 10 Z 5 5', /command was expected/],
    ];
    for (const [d, pattern] of bad)
      assert.throws(
        () => flattenPath(d, 0.1),
        (err: Error) => err instanceof PathSyntaxError && pattern.test(err.message),
        d,
      );
  });
});

describe('SVG documents give their filled shapes, transformed', () => {
  const apply = (m: number[], [x, y]: Point): Point => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

  test('transforms compose left to right, as SVG applies them', () => {
    const cases: [string, Point, Point][] = [
      ['translate(10,5) rotate(90)', [1, 0], [10, 6]],
      ['rotate(90 5 5)', [10, 5], [5, 10]],
      ['scale(2) translate(1 1)', [0, 0], [2, 2]],
      ['scale(2,-1)', [3, 3], [6, -3]],
      ['matrix(1 0 0 1 7 8)', [1, 1], [8, 9]],
      ['skewX(45)', [0, 2], [2, 2]],
    ];
    for (const [text, from, to] of cases) {
      const [x, y] = apply(parseTransform(text), from);
      close(x, to[0], 1e-9, `${text} x`);
      close(y, to[1], 1e-9, `${text} y`);
    }
  });

  test('paths, rectangles (rounded), circles and polygons are read; unfilled shapes, defs and comments are not', () => {
    const svg = `<?xml version="1.0"?><!-- <rect width="99" height="99"/> -->
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
        <defs><rect width="500" height="500"/></defs>
        <g transform="translate(10 10)">
          <rect x="0" y="0" width="20" height="10" rx="2"/>
          <circle cx="40" cy="5" r="5" transform="scale(1)"/>
        </g>
        <polygon points="0,50 10,50 5,60"/>
        <polyline points="20 50 30 50 30 60" fill="none"/>
        <ellipse cx="50" cy="50" rx="10" ry="5" style="stroke:red; fill: none"/>
        <path d='M60 60h10v10h-10z'/>
      </svg>`;
    const shapes = svgDocumentShapes(svg, 0.01);
    const areas = shapes.map((shape) => Math.abs(signedArea(shape[0])));
    assert.equal(shapes.length, 4, JSON.stringify(areas));
    // Chords within 0.01 of a curve lose at most 0.01 × its length of area.
    close(areas[0], 200 - (4 - Math.PI) * 4, 2 * Math.PI * 2 * 0.01, 'rounded rectangle');
    close(areas[1], Math.PI * 25, 2 * Math.PI * 5 * 0.01, 'circle');
    close(areas[2], 50, 1e-9, 'triangle');
    close(areas[3], 100, 1e-9, 'square');
    const xs = shapes[0][0].map(([x]) => x);
    close(Math.min(...xs), 10, 1e-9, 'the group moved the rectangle');
    close(Math.max(...shapes[1][0].map(([x]) => x)), 55, 1e-9, 'and the circle');
  });

  test('a document extrudes to the union of its shapes', async () => {
    const svg = '<svg><rect width="20" height="20"/><rect x="10" y="10" width="20" height="20"/><circle cx="50" cy="50" r="5"/></svg>';
    const facts = await sketch({ source: 'svg', svg, height: 2, tolerance: 0.005 });
    close(facts.volume, (400 + 400 - 100 + Math.PI * 25) * 2, 2 * Math.PI * 5 * 0.005 * 2, 'overlap counted once');
  });
});

describe('polygon checks', () => {
  const square: Point[] = [
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
  ];

  test('a bow tie crosses itself; a square does not; a hole crossing the outline is found', () => {
    assert.deepEqual(
      firstCrossing([
        [
          [0, 0],
          [10, 10],
          [10, 0],
          [0, 10],
        ],
      ]),
      { first: [0, 0], second: [0, 2] },
    );
    assert.equal(firstCrossing([square]), null);
    const hole: Point[] = [
      [5, 5],
      [15, 5],
      [15, 8],
    ];
    const crossing = firstCrossing([square, hole]);
    assert.deepEqual([crossing?.first[0], crossing?.second[0]].sort(), [0, 1]);
    assert.equal(
      firstCrossing([
        square,
        [
          [2, 2],
          [4, 2],
          [4, 4],
        ],
      ]),
      null,
    );
  });

  test('edges that fold back along each other or touch at a point count as crossing', () => {
    assert.notEqual(
      firstCrossing([
        [
          [0, 0],
          [10, 0],
          [5, 0],
          [5, 5],
        ],
      ]),
      null,
    );
    assert.notEqual(
      firstCrossing([
        [
          [0, 0],
          [10, 0],
          [10, 10],
          [5, 0],
          [0, 10],
        ],
      ]),
      null,
    );
  });

  test('signed area and inside', () => {
    assert.equal(signedArea(square), 100);
    assert.equal(signedArea([...square].reverse()), -100);
    assert.ok(insidePolygon([5, 5], square) && !insidePolygon([15, 5], square));
  });
});

async function sketch(body: Record<string, unknown>) {
  const params = withDefaults(sketchGenerator.schema, body);
  assert.equal(sketchGenerator.check?.(params) ?? null, null);
  const model = await sketchGenerator.generate(await manifoldKernel(), params, () => {});
  return assertSolid(model.mesh);
}

describe('sketches extrude to closed solids of the size asked for', () => {
  const ring = 'M0 0H20V20H0Z M5 5H15V15H5Z';

  test('the fill rule decides the hole: nonzero fills a square inside one running the same way, evenodd cuts it', async () => {
    close((await sketch({ path: ring, fill_rule: 'nonzero', height: 2 })).volume, 400 * 2, 1e-3);
    close((await sketch({ path: ring, fill_rule: 'evenodd', height: 2 })).volume, 300 * 2, 1e-3);
    close((await sketch({ path: 'M0 0H20V20H0Z M5 5V15H15V5Z', fill_rule: 'nonzero', height: 2 })).volume, 300 * 2, 1e-3, 'reversed inner square');
  });

  test('an outline with holes, and a drawing scaled so its larger side is fit_size', async () => {
    const facts = await sketch({
      source: 'points',
      points: [
        [0, 0],
        [40, 0],
        [40, 25],
        [0, 25],
      ],
      holes: [
        [
          [5, 5],
          [15, 5],
          [15, 15],
          [5, 15],
        ],
        [
          [20, 20],
          [30, 20],
          [25, 10],
        ],
      ],
      fit_size: 80,
      height: 3,
    });
    close(facts.size[0], 80, 1e-4, 'width');
    close(facts.size[1], 50, 1e-4, 'depth');
    close(facts.size[2], 3, 1e-6, 'height');
    close(facts.volume, (1000 - 100 - 50) * 4 * 3, 1e-2, 'scaled area × height');
  });

  test('a chamfer removes a 45° wedge along the top edge; a rounded edge removes less', async () => {
    const block = {
      source: 'points',
      points: [
        [0, 0],
        [40, 0],
        [40, 25],
        [0, 25],
      ],
      height: 5,
      edge_size: 1,
    };
    const sharp = await sketch(block);
    close(sharp.volume, 5000, 1e-3);
    const chamfer = await sketch({ ...block, edge: 'chamfer' });
    close(chamfer.volume, 5000 - 65 + 4 / 3, 0.05, 'prism less the wedge: ∫(40-2z)(25-2z)dz over the top 1 mm');
    close(chamfer.size[2], 5, 1e-6);
    const round = await sketch({ ...block, edge: 'round' });
    close(round.volume, 5000 - 130 * (1 - Math.PI / 4), 1.5, 'a quarter-circle rounding removes (1 - π/4) r² per mm of edge');
  });

  test('the example tag (a rounded end and a hole, by default) is a closed solid with its hole', async () => {
    const facts = await sketch({});
    close(facts.size[0], 65, 1e-3);
    close(facts.volume, (50 * 30 + (Math.PI * 225) / 2 - Math.PI * 25) * 5, 10);
  });

  test('input a user must fix is refused with a reason', () => {
    const refused = (body: Record<string, unknown>) => sketchGenerator.check?.(withDefaults(sketchGenerator.schema, body)) ?? '';
    assert.match(refused({ path: 'M0 0 L10 0' }), /the path draws no filled shape/);
    assert.match(refused({ source: 'svg', svg: '<svg><rect width="10" height="10" fill="none"/></svg>' }), /the svg draws no filled shape/);
    assert.match(refused({ source: 'svg', svg: '<svg><path d="M0 0 L10"/></svg>' }), /^svg: <path> number 1: a number was expected/);
    assert.match(refused({ path: 'M0 0 Q' }), /^path: a number was expected/);
    assert.match(
      refused({
        source: 'points',
        points: [
          [0, 0],
          [10, 10],
          [10, 0],
          [0, 10],
        ],
      }),
      /crosses itself/,
    );
    assert.match(
      refused({
        source: 'points',
        holes: [
          [
            [50, 50],
            [60, 50],
            [60, 60],
          ],
        ],
      }),
      /hole 1 is outside/,
    );
    assert.match(
      refused({
        source: 'points',
        holes: [
          [
            [30, 10],
            [50, 10],
            [50, 20],
          ],
        ],
      }),
      /the outline and hole 1 cross/,
    );
    assert.match(refused({ path: 'M0 0H1000V10H0Z' }), /fit_size/);
    assert.match(refused({ edge: 'chamfer', edge_size: 5, height: 5 }), /edge_size/);
    // 600 circles of radius 100 mm within 0.003 mm: about 400 chords each.
    const manyCircles = Array.from({ length: 600 }, (_, k) => `M${k * 0.3} 0a100 100 0 1 0 1 0`).join('');
    assert.match(refused({ path: manyCircles, tolerance: 0.003 }), /flattens to \d+ points .*raise the tolerance/);
  });

  test('a chamfer wider than the shape fails the job with a reason', async () => {
    const params = withDefaults(sketchGenerator.schema, {
      source: 'points',
      points: [
        [0, 0],
        [3, 0],
        [3, 3],
        [0, 3],
      ],
      edge: 'chamfer',
      edge_size: 4,
      height: 10,
    });
    await assert.rejects(
      sketchGenerator.generate(await manifoldKernel(), params, () => {}),
      /wider than the shape allows/,
    );
  });
});
