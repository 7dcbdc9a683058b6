/**
 * Slice uploads as a browser sends them, for the tests of the file-returning slice routes
 * (native/slice, bridge/slice, bridge/slice-and-send): multipart forms with a model, and the
 * statistics headers of the reply.
 */
import { execFile } from 'node:child_process';
import { modelBytes, type TestModel } from '../../../fixtures/model-files.js';

const MODEL_FILES = new URL('../../../fixtures/model-files.js', import.meta.url).href;

/** The bundled profiles every test slices with unless it says otherwise. */
export const MARLIN_JOB = { printer_id: 'generic-marlin-0.4', filament_ids: '["generic-pla"]', process_id: '0.20mm-standard' } as const;

export function sliceForm(model: TestModel, fields: Record<string, string> = MARLIN_JOB): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('model', new Blob([modelBytes(model)]), model);
  return form;
}

export async function postForm(baseUrl: string, urlPath: string, token: string, form: FormData, signal?: AbortSignal): Promise<Response> {
  return fetch(baseUrl + urlPath, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form, ...(signal ? { signal } : {}) });
}

export interface SliceStats {
  layers: number;
  durationMs: number;
  estimatedTimeS: number;
  filamentG: number[];
}

/** The four statistics headers; a missing one fails the test that reads it. */
export function sliceStats(response: Response): SliceStats {
  const header = (name: string): string => {
    const value = response.headers.get(name);
    if (value === null) throw new Error(`the reply has no ${name} header`);
    return value;
  };
  return {
    layers: Number(header('x-layer-count')),
    durationMs: Number(header('x-slice-duration-ms')),
    estimatedTimeS: Number(header('x-estimated-time-sec')),
    filamentG: header('x-filament-g').split(',').map(Number),
  };
}

/** Makes the model, posts it in a slice form and prints the reply's status and length; run by `postFromOtherProcess`. */
const CLIENT_SCRIPT = `
const [url, token, modelFiles, model, fields] = process.argv.slice(1);
const { modelBytes } = await import(modelFiles);
const form = new FormData();
for (const [name, value] of Object.entries(JSON.parse(fields))) form.set(name, value);
form.set('model', new Blob([modelBytes(model)]), model);
const response = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer ' + token }, body: form });
const body = await response.arrayBuffer();
process.stdout.write(JSON.stringify({ status: response.status, bytes: body.byteLength }));
`;

/**
 * A slice form posted from another Node process: the memory of this one, where a test's dashboard
 * runs, is then the dashboard's alone (making the model, the client's copies of it and of the
 * G-code happen in the other one).
 */
export function postFromOtherProcess(
  baseUrl: string,
  urlPath: string,
  token: string,
  model: TestModel,
  fields: Record<string, string> = MARLIN_JOB,
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', CLIENT_SCRIPT, baseUrl + urlPath, token, MODEL_FILES, model, JSON.stringify(fields)],
      (err, stdout, stderr) => {
        if (err) reject(new Error(`the client process failed: ${stderr || err.message}`));
        else resolve(JSON.parse(stdout) as { status: number; bytes: number });
      },
    );
  });
}
