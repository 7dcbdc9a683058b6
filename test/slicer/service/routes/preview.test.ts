import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cube, cubeWithHole, to3mf } from '../../../fixtures/meshes.js';
import { cubeStl, startSlicer, type SlicerProcess } from '../../../fixtures/slicer-service.js';

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--preview-max-px', '800']);
});
after(() => svc.cleanup());

function form(model: Uint8Array, name: string, fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  f.append('model', new Blob([model]), name);
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

const preview = (body: FormData) => fetch(`${svc.url}/api/preview`, { method: 'POST', body });

async function png(res: Response): Promise<{ size: [number, number]; opaque: number }> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer);
  return { size: [view.getUint32(16), view.getUint32(20)], opaque: bytes.length };
}

test('an unsliced model is rendered as a PNG, 512 x 512 by default', async () => {
  const res = await preview(form(cubeStl(), 'cube.stl'));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.deepEqual((await png(res)).size, [512, 512]);
});

test('width, height and view are honoured; a 3MF renders too', async () => {
  const plate = to3mf({
    objects: [
      { id: 1, mesh: cube(20) },
      { id: 2, mesh: cubeWithHole(20, 8, [30, 0, 0]) },
    ],
    items: [{ objectId: 1 }, { objectId: 2 }],
  });
  const res = await preview(form(plate, 'plate.3mf', { width: '320', height: '200', view: 'top' }));
  assert.equal(res.status, 200);
  assert.deepEqual((await png(res)).size, [320, 200]);
});

test('sizes beyond the limit and other bad fields are 400 naming the field', async () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ width: '801' }, /field "width" must be an integer from 1 to 800, got "801"/],
    [{ height: '0' }, /field "height" must be an integer from 1 to 800/],
    [{ width: '12.5' }, /field "width"/],
    [{ view: 'side' }, /field "view" must be one of iso, top/],
    [{ colour: 'red' }, /unknown field "colour"/],
  ];
  for (const [fields, message] of cases) {
    const res = await preview(form(cubeStl(), 'cube.stl', fields));
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: string; code: string };
    assert.equal(body.code, 'ERR_BAD_REQUEST');
    assert.match(body.error, message);
  }
  const noModel = new FormData();
  noModel.append('width', '10');
  const res = await preview(noModel);
  assert.equal(res.status, 400);
  assert.match(((await res.json()) as { error: string }).error, /field "model" is required/);
});

test('a file that is no model is 415; a broken one 422', async () => {
  const text = await preview(form(new TextEncoder().encode('not a mesh at all'), 'notes.txt'));
  assert.equal(text.status, 415);
  assert.equal(((await text.json()) as { code: string }).code, 'ERR_UNSUPPORTED_MODEL');
  const broken = await preview(form(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]), 'broken.3mf'));
  assert.equal(broken.status, 422);
  assert.equal(((await broken.json()) as { code: string }).code, 'ERR_BAD_MODEL');
});
