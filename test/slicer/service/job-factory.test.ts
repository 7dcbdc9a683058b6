import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createLogger } from '../../../appliance/common/logger.js';
import { ProfileCatalogue } from '../../../appliance/slicer/profiles/catalogue.js';
import { createJob } from '../../../appliance/slicer/service/job-factory.js';
import { JobStore } from '../../../appliance/slicer/service/job-store.js';
import type { SliceForm } from '../../../appliance/slicer/run/slice-form.js';
import { cubeStl } from '../../fixtures/slicer-service.js';

const log = createLogger({ name: 'test', level: 'error', write: () => undefined });
let root: string;
let store: JobStore;
let catalogue: ProfileCatalogue;

before(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'printyard-factory-'));
  store = new JobStore(root, { keepJobs: 5, keepMs: 60_000 }, log);
  await store.open();
  catalogue = await ProfileCatalogue.bundled();
});
after(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

function upload(content: Uint8Array | string, fileName: string): SliceForm['model'] {
  const file = path.join(store.uploadsDir, `upload-${Math.random().toString(16).slice(2)}`);
  writeFileSync(file, content);
  return {
    field: 'model',
    fileName,
    mimeType: 'application/octet-stream',
    path: file,
    size: typeof content === 'string' ? content.length : content.length,
  };
}

test('a job gets its folder, its model moved in, and output names by printer flavour', async () => {
  const model = upload(cubeStl(), 'Würfel.stl');
  const job = await createJob(catalogue, store, {
    model,
    printerId: 'generic-marlin-0.4',
    filamentIds: ['generic-pla'],
    processId: '0.20mm-standard',
    overrides: null,
  });
  assert.equal(job.state, 'queued');
  assert.equal(job.dir, path.join(root, job.id));
  assert.equal(job.work?.outputPath, path.join(job.dir, 'Würfel.gcode'));
  assert.equal(job.work?.modelPath, path.join(job.dir, 'model.stl'));
  assert.deepEqual(readFileSync(job.work?.modelPath ?? ''), Buffer.from(cubeStl()));
  assert.equal(existsSync(model.path), false);
  assert.equal(job.work?.metadata.printerName, 'Generic Marlin 0.4 nozzle');
  assert.equal(job.toJSON().model_name, 'Würfel.stl');

  const bambu = await createJob(catalogue, store, {
    model: upload(cubeStl(), 'cube.stl'),
    printerId: 'bambu-lab-p1s-0.4',
    filamentIds: ['generic-pla'],
    processId: '0.20mm-standard',
    overrides: { layer_height: 0.12 },
  });
  assert.equal(path.basename(bambu.work?.outputPath ?? ''), 'cube.gcode.3mf');
  assert.equal(bambu.work?.config.layer_height, 0.12);
});

test('a non-model upload is refused before a folder is made', async () => {
  const before = store.all().length;
  await assert.rejects(
    createJob(catalogue, store, {
      model: upload('just some text, not a mesh', 'notes.txt'),
      printerId: 'generic-marlin-0.4',
      filamentIds: ['generic-pla'],
      processId: '0.20mm-standard',
      overrides: null,
    }),
    (err: Error & { status?: number }) => err.status === 415,
  );
  assert.equal(store.all().length, before);
});
