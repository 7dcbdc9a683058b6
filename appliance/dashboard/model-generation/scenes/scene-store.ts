/**
 * The scenes, in `model-scenes.json` (an atomic store), at most MAX_SCENES. A scene refers to
 * generation jobs by id: each must be done when the scene is written (its mesh is read to check
 * the object's size once transformed); a job deleted later leaves the object in place, marked
 * `missing` with the reason, and such a scene is refused for slicing. The jobs a scene uses are
 * pinned: the job queue does not drop them to make room for new jobs.
 */
import { randomUUID } from 'node:crypto';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { JsonStore, JsonStores } from '../../../common/json-store.js';
import { normalizeName } from '../../../common/names.js';
import { validationError } from '../../http/validate.js';
import type { ModelJobs } from '../jobs.js';
import { fullTransform, MAX_OBJECT_SIZE_MM, MAX_SCENES, MIN_OBJECT_SIZE_MM, type Scene, type SceneInput, type SceneObject } from './scene.js';
import { transformedSize } from './placement.js';

export const SCENES_STORE = 'model-scenes.json';

interface ScenesFile {
  scenes: Scene[];
}

export interface SceneObjectView extends SceneObject {
  missing: string | null;
}

export interface SceneView extends Omit<Scene, 'objects'> {
  objects: SceneObjectView[];
  /** How many objects are missing. */
  missing: number;
}

function scenesProblem(data: unknown): string | null {
  const scenes = (data as ScenesFile | null)?.scenes;
  if (!Array.isArray(scenes)) return 'scenes is not a list';
  const bad = scenes.findIndex((s) => typeof s?.id !== 'string' || typeof s.name !== 'string' || !Array.isArray(s.objects));
  return bad < 0 ? null : `scene ${bad} is not a scene`;
}

export class SceneStore {
  private store: JsonStore<ScenesFile> | null = null;

  constructor(
    private readonly stores: JsonStores,
    private readonly jobs: ModelJobs,
  ) {}

  async open(): Promise<void> {
    this.store = await this.stores.open<ScenesFile>(SCENES_STORE, { scenes: [] }, scenesProblem);
  }

  private file(): JsonStore<ScenesFile> {
    if (!this.store) throw new AppError(ErrorCode.unavailable, 503, 'model generation is starting');
    return this.store;
  }

  get size(): number {
    return this.store?.data.scenes.length ?? 0;
  }

  /** Whether any scene uses the job (before open: none). */
  uses(jobId: string): boolean {
    return this.store?.data.scenes.some((s) => s.objects.some((o) => o.job_id === jobId)) ?? false;
  }

  /** Newest first. */
  list(): SceneView[] {
    return [...this.file().data.scenes].reverse().map((s) => this.view(s));
  }

  get(id: string): SceneView {
    return this.view(this.stored(id));
  }

  stored(id: string): Scene {
    const scene = this.file().data.scenes.find((s) => s.id === id);
    if (!scene) throw new AppError(ErrorCode.notFound, 404, `no scene ${id}`);
    return structuredClone(scene);
  }

  async create(input: SceneInput): Promise<SceneView> {
    const store = this.file();
    if (store.data.scenes.length >= MAX_SCENES) {
      throw new AppError(ErrorCode.conflict, 409, `${MAX_SCENES} scenes are kept at most; delete one first`);
    }
    const now = new Date().toISOString();
    const scene: Scene = { id: randomUUID(), ...(await this.checked(input)), created_at: now, updated_at: now };
    store.data.scenes.push(scene);
    await store.write();
    return this.view(scene);
  }

  /** Replaces the scene's content (PUT): the id and creation time stay. */
  async update(id: string, input: SceneInput): Promise<SceneView> {
    const scene = this.file().data.scenes.find((s) => s.id === id);
    if (!scene) throw new AppError(ErrorCode.notFound, 404, `no scene ${id}`);
    Object.assign(scene, await this.checked(input), { updated_at: new Date().toISOString() });
    await this.file().write();
    return this.view(scene);
  }

  /** Moves each object to its new `translate` x/y (arranging); everything else stays. */
  async move(id: string, offsets: readonly [number, number][]): Promise<SceneView> {
    const scene = this.file().data.scenes.find((s) => s.id === id);
    if (!scene) throw new AppError(ErrorCode.notFound, 404, `no scene ${id}`);
    scene.objects.forEach((object, k) => {
      const round = (value: number) => Math.round(value * 1000) / 1000;
      object.transform.translate = { ...object.transform.translate, x: round(offsets[k][0]), y: round(offsets[k][1]) };
    });
    scene.updated_at = new Date().toISOString();
    await this.file().write();
    return this.view(scene);
  }

  async delete(id: string): Promise<void> {
    const store = this.file();
    if (!store.data.scenes.some((s) => s.id === id)) throw new AppError(ErrorCode.notFound, 404, `no scene ${id}`);
    store.data.scenes = store.data.scenes.filter((s) => s.id !== id);
    await store.write();
  }

  /** Why the object's job cannot be used any more, or null. */
  missing(object: SceneObject): string | null {
    try {
      this.jobs.get(object.job_id);
      return null;
    } catch {
      return `generation job ${object.job_id} was deleted`;
    }
  }

  private view(scene: Scene): SceneView {
    const objects = scene.objects.map((o) => ({ ...structuredClone(o), missing: this.missing(o) }));
    return { ...structuredClone(scene), objects, missing: objects.filter((o) => o.missing !== null).length };
  }

  /** The input as stored: jobs checked, defaults filled in, each object's size within bounds. */
  private async checked(input: SceneInput): Promise<Omit<Scene, 'id' | 'created_at' | 'updated_at'>> {
    const objects: SceneObject[] = [];
    for (const [index, object] of input.objects.entries()) {
      const where = `body/objects/${index}`;
      let job: ReturnType<ModelJobs['get']>;
      try {
        job = this.jobs.get(object.job_id);
      } catch {
        throw new AppError(ErrorCode.notFound, 404, `objects/${index}: no generation job ${object.job_id}`, { path: `${where}/job_id` });
      }
      if (job.state !== 'done') {
        throw new AppError(ErrorCode.conflict, 409, `objects/${index}: generation job ${job.id} is ${job.state}, not done`, {
          path: `${where}/job_id`,
        });
      }
      const transform = fullTransform(object.transform);
      const size = transformedSize(await this.jobs.mesh(job.id), transform);
      const axis = size.findIndex((s) => s > MAX_OBJECT_SIZE_MM || s < MIN_OBJECT_SIZE_MM);
      if (axis >= 0) {
        const extent = size.map((s) => s.toFixed(1)).join(' x ');
        throw validationError([
          {
            path: `${where}/transform/scale`,
            message: `makes the object ${extent} mm; each side must be from ${MIN_OBJECT_SIZE_MM} to ${MAX_OBJECT_SIZE_MM} mm`,
          },
        ]);
      }
      if (size[2] + transform.translate.z < MIN_OBJECT_SIZE_MM) {
        throw validationError([
          { path: `${where}/transform/translate/z`, message: `sinks the whole object (${size[2].toFixed(1)} mm high) into the bed` },
        ]);
      }
      objects.push({ job_id: job.id, name: normalizeName(object.name ?? `${job.generator}-${index + 1}`), transform });
    }
    return {
      name: normalizeName(input.name),
      objects,
      printer_id: input.printer_id ?? null,
      filament_ids: input.filament_ids ?? null,
      process_id: input.process_id ?? null,
    };
  }
}
