/**
 * Turns a checked slice form into a queued-to-be job: profiles resolved, model format confirmed,
 * the upload moved into the job's own folder, output names chosen (a Bambu printer gets a
 * `.gcode.3mf`, every other a `.gcode`, named after the model).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { asStorageError } from '../../common/disk-space.js';
import type { ProfileCatalogue } from '../profiles/catalogue.js';
import { sliceMetadata } from '../profiles/slice-metadata.js';
import { outputFileName, outputFormatFor, safeFileName } from '../run/file-name.js';
import { sniffModelFile } from '../run/model-file.js';
import { resolveJobConfig, type SliceForm } from '../run/slice-form.js';
import { Job } from './job.js';
import { DIR_MODE, PREVIEW_FILE, type JobStore } from './job-store.js';

export async function createJob(catalogue: ProfileCatalogue, store: JobStore, form: SliceForm): Promise<Job> {
  const config = resolveJobConfig(catalogue, form);
  const format = await sniffModelFile(form.model.path, form.model.size, form.model.fileName);
  const id = randomBytes(8).toString('hex');
  const dir = store.jobDir(id);
  const modelName = safeFileName(form.model.fileName, `model.${format}`);
  const modelPath = path.join(dir, `model.${format}`);
  await mkdir(dir, { mode: DIR_MODE }).catch((err: unknown) => {
    throw asStorageError(err);
  });
  try {
    await rename(form.model.path, modelPath);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw asStorageError(err);
  }
  return Job.create({
    id,
    dir,
    modelName,
    modelSize: form.model.size,
    printerId: form.printerId,
    filamentIds: form.filamentIds,
    processId: form.processId,
    overrides: form.overrides,
    work: {
      modelPath,
      config,
      outputPath: path.join(dir, outputFileName(modelName, outputFormatFor(config))),
      previewPath: path.join(dir, PREVIEW_FILE),
      metadata: sliceMetadata(catalogue, form),
      heightChanges: form.heightChanges,
    },
  });
}
