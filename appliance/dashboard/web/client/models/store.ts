/**
 * The models page's state and what it asks the API: the generator catalogue, the generation jobs
 * (a snapshot kept current by `model.job` events), the scenes, and the calls that change them.
 */
import { computed, signal } from '@preact/signals';
import { api, type Ok, send } from '../api/client';
import type { Operations } from '../api/openapi.gen';
import { LiveReplay } from '../api/live-replay';
import type { SliceAndSent } from '../slicing/store';

export type Generator = Ok<'GET /api/ai-model/generators'>[number];
export type Job = Ok<'GET /api/ai-model/jobs'>[number];
export type Scene = Ok<'GET /api/ai-model/scenes'>[number];
export type SceneInput = Operations['PUT /api/ai-model/scenes/{id}']['body'];
export type SceneSliceResult = Ok<'POST /api/ai-model/scenes/{id}/slice'>;

/**
 * Generators are listed at run time, so their POSTs are reached by the catalogue's `path`; every
 * JSON generator answers the same job, so one typed key stands for all of them (and the upload
 * key for the ones that take a file).
 */
type JsonGeneratorKey = 'POST /api/ai-model/gear';
type UploadGeneratorKey = 'POST /api/ai-model/image';

export class ModelsStore {
  readonly generators = signal<Generator[]>([]);
  readonly jobs = signal<Job[]>([]);
  readonly scenes = signal<Scene[]>([]);
  readonly loaded = signal(false);
  private readonly replay = new LiveReplay();

  readonly doneJobs = computed(() => this.jobs.value.filter((j) => j.state === 'done'));

  titleOf(generatorId: string): string {
    return this.generators.value.find((g) => g.id === generatorId)?.title ?? generatorId;
  }

  async load(): Promise<void> {
    const [generators, scenes] = await Promise.all([api('GET /api/ai-model/generators'), api('GET /api/ai-model/scenes'), this.loadJobs()]);
    this.generators.value = generators;
    this.scenes.value = scenes;
    this.loaded.value = true;
  }

  loadJobs(): Promise<void> {
    return this.replay.load(async () => {
      const jobs = await api('GET /api/ai-model/jobs');
      return () => {
        this.jobs.value = jobs;
      };
    });
  }

  /** A `model.job` event: the job as it is now (a new one goes first: the list is newest first). */
  onJob(job: Job): void {
    this.replay.apply(() => this.upsert(job));
  }

  private upsert(job: Job): void {
    const list = this.jobs.value;
    const at = list.findIndex((j) => j.id === job.id);
    // A late progress event must not undo a finish that arrived first.
    if (at >= 0 && list[at].state === 'done' && job.state !== 'done') return;
    this.jobs.value = at < 0 ? [job, ...list] : list.map((j, i) => (i === at ? job : j));
  }

  async generate(generator: Generator, values: Record<string, unknown>, file: File | null): Promise<Job> {
    const job =
      generator.upload !== null
        ? await api(`POST ${generator.path}` as UploadGeneratorKey, {
            query: values as Operations[UploadGeneratorKey]['query'],
            body: file ?? new Blob([]),
          })
        : await api(`POST ${generator.path}` as JsonGeneratorKey, { body: values as Operations[JsonGeneratorKey]['body'] });
    this.upsert(job);
    return job;
  }

  async deleteJob(id: string): Promise<void> {
    await api('DELETE /api/ai-model/jobs/{id}', { path: { id } });
    this.jobs.value = this.jobs.value.filter((j) => j.id !== id);
    // A scene that used it now shows the object as missing.
    this.scenes.value = await api('GET /api/ai-model/scenes');
  }

  async jobFile(id: string, format: 'stl' | '3mf'): Promise<{ blob: Blob; name: string }> {
    const response = await send('GET /api/ai-model/jobs/{id}/download', { path: { id }, query: { format } }, '*/*');
    return { blob: await response.blob(), name: fileName(response, `model.${format}`) };
  }

  async createScene(name: string, jobIds: string[]): Promise<Scene> {
    const scene = await api('POST /api/ai-model/scenes', { body: { name, objects: jobIds.map((job_id) => ({ job_id })) } });
    this.scenes.value = [scene, ...this.scenes.value];
    return scene;
  }

  async saveScene(id: string, input: SceneInput): Promise<Scene> {
    return this.replaceScene(await api('PUT /api/ai-model/scenes/{id}', { path: { id }, body: input }));
  }

  async arrange(id: string, printerId: string | null): Promise<Scene> {
    const body = printerId === null ? {} : { printer_id: printerId };
    return this.replaceScene(await api('POST /api/ai-model/scenes/{id}/arrange', { path: { id }, body }));
  }

  slice(id: string): Promise<SceneSliceResult> {
    return api('POST /api/ai-model/scenes/{id}/slice', { path: { id }, body: {} });
  }

  /** Slices the scene for a dashboard printer and starts it there, its calibration pieces' changes included. */
  sliceAndSend(id: string, printerId: string, printerProfileId: string): Promise<SliceAndSent> {
    const body = printerProfileId === '' ? { printer_id: printerId } : { printer_id: printerId, printer_profile_id: printerProfileId };
    return api('POST /api/ai-model/scenes/{id}/slice-and-send', { path: { id }, body });
  }

  async deleteScene(id: string): Promise<void> {
    await api('DELETE /api/ai-model/scenes/{id}', { path: { id } });
    this.scenes.value = this.scenes.value.filter((s) => s.id !== id);
  }

  async sceneFile(id: string): Promise<File> {
    const response = await send('GET /api/ai-model/scenes/{id}/download', { path: { id } }, '*/*');
    const blob = await response.blob();
    return new File([blob], fileName(response, 'scene.3mf'), { type: 'model/3mf' });
  }

  async gcodeFile(resultId: string): Promise<{ blob: Blob; name: string }> {
    const response = await send('GET /api/slicer/results/{id}/gcode', { path: { id: resultId } }, '*/*');
    return { blob: await response.blob(), name: fileName(response, 'scene.gcode') };
  }

  private replaceScene(scene: Scene): Scene {
    this.scenes.value = this.scenes.value.map((s) => (s.id === scene.id ? scene : s));
    return scene;
  }
}

/** The name the server gave the attachment (`filename="…"`), or `fallback`. */
function fileName(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]);
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/** Saves a file fetched with the session's token (a plain link would send none). */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
