import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bboxSize, meshBounds } from '../../../../appliance/slicer/engine/mesh/bounds.js';
import { load3mf } from '../../../../appliance/slicer/engine/mesh/threemf.js';
import { box, cube, meshVolume, to3mf, twoObjects } from '../../../fixtures/meshes.js';

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
const move = (x: number, y: number, z: number): number[] => [1, 0, 0, 0, 1, 0, 0, 0, 1, x, y, z];
const scale = (s: number): number[] => [s, 0, 0, 0, s, 0, 0, 0, s, 0, 0, 0];
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

const near = (actual: readonly number[], expected: readonly number[]): void => {
  for (const [k, v] of actual.entries()) assert.ok(Math.abs(v - expected[k]) < 1e-4, `${actual} vs ${expected}`);
};

describe('3MF loading', () => {
  it('applies an item transform with the row-vector convention (translation last)', () => {
    // 90° about Z in row-vector form: x' = -y, y' = x.
    const rotate = [0, 1, 0, -1, 0, 0, 0, 0, 1, 100, 50, 0];
    const model = load3mf(to3mf({ objects: [{ id: 1, mesh: box(10, 20, 5) }], items: [{ objectId: 1, transform: rotate }] }));
    const b = meshBounds(model.objects[0].mesh);
    near(b.min, [80, 50, 0]);
    near(b.max, [100, 60, 5]);
    assert.equal(model.positioned, true);
    assert.equal(model.format, '3mf');
  });

  it('applies a component transform before its item transform', () => {
    const model = load3mf(
      to3mf({
        objects: [
          { id: 1, mesh: cube(10) },
          { id: 2, name: 'assembly', components: [{ objectId: 1, transform: move(10, 0, 0) }] },
        ],
        items: [{ objectId: 2, transform: scale(2) }],
      }),
    );
    // (p + 10) * 2, not p * 2 + 10.
    near(meshBounds(model.objects[0].mesh).min, [20, 0, 0]);
    near(meshBounds(model.objects[0].mesh).max, [40, 20, 20]);
    assert.equal(model.objects[0].name, 'assembly');
  });

  it('joins the meshes of several components into one object', () => {
    const [a, b] = twoObjects();
    const model = load3mf(
      to3mf({
        objects: [
          { id: 1, mesh: a },
          { id: 2, mesh: b },
          { id: 3, components: [{ objectId: 1 }, { objectId: 2, transform: move(0, 0, 1) }] },
        ],
        items: [{ objectId: 3 }],
      }),
    );
    assert.equal(model.objects.length, 1);
    assert.equal(model.objects[0].mesh.indices.length, a.indices.length + b.indices.length);
    near(meshBounds(model.objects[0].mesh).max, [35, 10, 10]);
    assert.equal(model.positioned, false);
  });

  it('follows components into other model parts (p:path, as Bambu Studio writes them)', () => {
    const model = load3mf(
      to3mf({
        objects: [{ id: 5, name: 'Cube', components: [{ objectId: 1, path: '/3D/Objects/object_1.model', transform: move(1, 2, 3) }] }],
        items: [{ objectId: 5, transform: move(100, 100, 0) }],
        parts: { '3D/Objects/object_1.model': { objects: [{ id: 1, mesh: cube(10) }] } },
      }),
    );
    near(meshBounds(model.objects[0].mesh).min, [101, 102, 3]);
  });

  it('converts every unit to millimetres, translations included', () => {
    const cases: [string, number][] = [
      ['micron', 0.001],
      ['millimeter', 1],
      ['centimeter', 10],
      ['inch', 25.4],
      ['foot', 304.8],
      ['meter', 1000],
    ];
    for (const [unit, mm] of cases) {
      const model = load3mf(to3mf({ unit, objects: [{ id: 1, mesh: cube(2) }], items: [{ objectId: 1, transform: move(1, 0, 0) }] }));
      const b = meshBounds(model.objects[0].mesh);
      near(b.min, [mm, 0, 0]);
      near(bboxSize(b), [2 * mm, 2 * mm, 2 * mm]);
    }
  });

  it('reverses the winding under a mirroring transform so the mesh stays outward', () => {
    const mirror = [-1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    const model = load3mf(to3mf({ objects: [{ id: 1, mesh: box(10, 20, 30) }], items: [{ objectId: 1, transform: mirror }] }));
    assert.ok(Math.abs(meshVolume(model.objects[0].mesh) - 6000) < 1e-6);
    near(meshBounds(model.objects[0].mesh).min, [-10, 0, 0]);
    const twice = load3mf(
      to3mf({
        objects: [
          { id: 1, mesh: cube(10) },
          { id: 2, components: [{ objectId: 1, transform: mirror }] },
        ],
        items: [{ objectId: 2, transform: mirror }],
      }),
    );
    assert.ok(Math.abs(meshVolume(twice.objects[0].mesh) - 1000) < 1e-6);
  });

  it('loads several objects, keeps their names unique and reads a per-object extruder', () => {
    for (const style of ['prusa', 'bambu'] as const) {
      const model = load3mf(
        to3mf({
          objects: [
            { id: 1, name: 'left', mesh: cube(10) },
            { id: 2, name: 'right', mesh: cube(10) },
          ],
          items: [
            { objectId: 1, transform: IDENTITY },
            { objectId: 2, transform: move(20, 0, 0) },
            { objectId: 2, transform: move(40, 0, 0) },
          ],
          extruders: { style, byObject: { 2: 3 } },
        }),
      );
      assert.deepEqual(
        model.objects.map((o) => [o.name, o.filament]),
        [
          ['left', 1],
          ['right', 3],
          ['right (2)', 3],
        ],
        style,
      );
    }
  });

  it('skips non-printable object types and items with printable="0", with warnings', () => {
    const model = load3mf(
      to3mf({
        objects: [
          { id: 1, name: 'part', mesh: cube(10) },
          { id: 2, name: 'blocker', type: 'support', mesh: cube(5) },
          { id: 3, name: 'hidden', mesh: cube(5) },
          { id: 4, name: 'sheet', type: 'surface', mesh: cube(5) },
          { id: 5, name: 'asm', components: [{ objectId: 1 }, { objectId: 2 }] },
        ],
        items: [{ objectId: 1 }, { objectId: 2 }, { objectId: 3, printable: false }, { objectId: 4 }, { objectId: 5 }],
      }),
    );
    assert.deepEqual(
      model.objects.map((o) => o.name),
      ['part', 'asm'],
    );
    assert.equal(model.objects[1].mesh.indices.length, 36);
    assert.equal(model.warnings.length, 4);
    assert.match(model.warnings.join('\n'), /"blocker": object type "support"/);
    assert.match(model.warnings.join('\n'), /"hidden": its build item is marked not printable/);
    assert.match(model.warnings.join('\n'), /"sheet": object type "surface"/);
    assert.match(model.warnings.join('\n'), /part 2 of object 5/);
  });

  it('finds the start part through _rels/.rels and returns the thumbnail', () => {
    const model = load3mf(to3mf({ startPart: '3D/main.model', objects: [{ id: 1, mesh: cube(10) }], items: [{ objectId: 1 }], thumbnail: PNG }));
    assert.equal(model.objects.length, 1);
    assert.deepEqual(model.thumbnail, PNG);
    const noThumbnail = load3mf(to3mf({ objects: [{ id: 1, mesh: cube(10) }], items: [{ objectId: 1 }] }));
    assert.equal(noThumbnail.thumbnail, undefined);
  });

  it('uses 3D/3dmodel.model when the package has no relationships', () => {
    const bytes = to3mf({ objects: [{ id: 1, mesh: cube(10) }], items: [{ objectId: 1 }], files: { '_rels/.rels': '<Relationships/>' } });
    assert.equal(load3mf(bytes).objects.length, 1);
  });
});

describe('3MF errors', () => {
  it('names the object and triangle of an index past the vertex list', () => {
    const mesh = cube(10);
    const broken = { vertices: mesh.vertices, indices: Uint32Array.from(mesh.indices, (v, k) => (k === 3 * 4 + 1 ? 99 : v)) };
    assert.throws(() => load3mf(to3mf({ objects: [{ id: 7, name: 'lid', mesh: broken }], items: [{ objectId: 7 }] })), {
      code: 'ERR_BAD_MODEL',
      message: /3D\/3dmodel.model, line \d+: object 7 \("lid"\): triangle 4 \(0-based\) refers to vertex 99, but the object has 8 vertices/,
    });
  });

  it('reports a component referring to a missing object or part', () => {
    const spec = (path?: string) =>
      to3mf({
        objects: [
          { id: 1, mesh: cube(1) },
          { id: 2, components: [{ objectId: 9, ...(path ? { path } : {}) }] },
        ],
        items: [{ objectId: 2 }],
      });
    assert.throws(() => load3mf(spec()), { code: 'ERR_BAD_MODEL', message: /object 2 has a component referring to object 9, which does not exist/ });
    assert.throws(() => load3mf(spec('/3D/Objects/gone.model')), {
      message: /object 9 in \/3D\/Objects\/gone.model, which does not exist \(no such model part\)/,
    });
  });

  it('reports component cycles, missing build objects, empty builds and unknown units', () => {
    const cyclic = to3mf({
      objects: [
        { id: 1, components: [{ objectId: 2 }] },
        { id: 2, components: [{ objectId: 1 }] },
      ],
      items: [{ objectId: 1 }],
    });
    assert.throws(() => load3mf(cyclic), { code: 'ERR_BAD_MODEL', message: /reference cycle/ });
    // Each level uses the one below twice: 2^30 cubes if expanded.
    const levels = Array.from({ length: 30 }, (_, k) => ({ id: k + 2, components: [{ objectId: k + 1 }, { objectId: k + 1 }] }));
    const bomb = to3mf({ objects: [{ id: 1, mesh: cube(1) }, ...levels], items: [{ objectId: 31 }] });
    assert.throws(() => load3mf(bomb), {
      code: 'ERR_BAD_MODEL',
      message: /"object 31" expands to 12884901888 triangles through its components; the limit for a model is 20000000/,
    });
    assert.throws(() => load3mf(to3mf({ objects: [{ id: 1, mesh: cube(1) }], items: [{ objectId: 4 }] })), {
      message: /build item refers to object 4/,
    });
    assert.throws(() => load3mf(to3mf({ objects: [{ id: 1, mesh: cube(1) }], items: [] })), { message: /no build items/ });
    assert.throws(() => load3mf(to3mf({ unit: 'toString', objects: [{ id: 1, mesh: cube(1) }], items: [{ objectId: 1 }] })), {
      message: /unknown unit "toString"/,
    });
    assert.throws(() => load3mf(to3mf({ unit: 'furlong', objects: [{ id: 1, mesh: cube(1) }], items: [{ objectId: 1 }] })), {
      message: /unknown unit "furlong"/,
    });
  });

  it('refuses a model where nothing is printable', () => {
    const bytes = to3mf({ objects: [{ id: 1, type: 'support', mesh: cube(1) }, { id: 2 }], items: [{ objectId: 1 }, { objectId: 2 }] });
    assert.throws(() => load3mf(bytes), { code: 'ERR_BAD_MODEL', message: /no printable objects.*not printed.*no triangles/ });
  });

  it('rejects bad vertex values and broken transforms', () => {
    const withFiles = (model: string) => to3mf({ objects: [], items: [], files: { '3D/3dmodel.model': model } });
    const head = '<model unit="millimeter"><resources><object id="1"><mesh><vertices>';
    assert.throws(() => load3mf(withFiles(`${head}<vertex x="1" y="NaN" z="0"/></vertices></mesh></object></resources><build/></model>`)), {
      message: /object 1: vertex 0 \(0-based\) has a missing or non-finite coordinate/,
    });
    assert.throws(
      () =>
        load3mf(withFiles(`${head}</vertices><triangles><triangle v1="0" v2="-1" v3="2"/></triangles></mesh></object></resources><build/></model>`)),
      { message: /triangle 0 \(0-based\) has a missing or invalid vertex index/ },
    );
    assert.throws(
      () => load3mf(withFiles(`${head}</vertices></mesh></object></resources><build><item objectid="1" transform="1 0 0"/></build></model>`)),
      { message: /transform that is not 12 numbers/ },
    );
  });
});
