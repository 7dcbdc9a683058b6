/**
 * A scene sent to slicing: its objects placed (placement.ts), checked (no two overlap; each inside
 * the printer's printable area and under its height), written as one 3MF with an object and a
 * build item per model (so the G-code labels each object and a printer can skip one), and sliced
 * through the dashboard's chain (slicing/fallback.ts: slicer service → desktop slicer → built-in
 * engine) into a stored slice result, the same result `POST /api/slicer/remote/slice` answers.
 * The calibration pieces' height changes go with it, moved to where each piece stands
 * (scene-height-changes.ts). `prepare` checks everything first, so a route can refuse a scene
 * before it opens an event stream; `run` slices.
 *
 * The bed comes from the printer profile as the dashboard's catalogue resolves it (bundled, user
 * and installed desktop slicers' profiles). A profile only the slicer service knows cannot be
 * checked here: the objects go in the 3MF without build positions and the slicer centres the
 * arrangement on its bed as a whole.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode } from '../../../common/errors.js';
import { type HeightChange, type PrintConfig, type Profile, type ProfileCatalogue, SETTINGS } from '../../../slicer/index.js';
import type { SlicingBackend } from '../../slicing/backend.js';
import { sliceWithFallback } from '../../slicing/fallback.js';
import type { ProgressListener } from '../../slicing/slice-events.js';
import { resolveJobConfig } from '../../slicing/native/backend.js';
import type { JobOwner } from '../../slicing/ownership.js';
import type { Printers } from '../../printers/feature.js';
import type { SpoolDirectory } from '../../inventory/spool.js';
import type { SliceResults, StoredResult } from '../../slicing/remote/results.js';
import { validationError } from '../../http/validate.js';
import { manifoldKernel } from '../geometry/manifold.js';
import { type ThreeMfObject, threeMfObjects } from '../geometry/mesh-files.js';
import type { ModelJobs } from '../jobs.js';
import { insidePolygon, overlapDepth, type PlacedObject, placeObject, type Point } from './placement.js';
import { arrange, type Footprint } from './arrange.js';
import type { SceneStore, SceneView } from './scene-store.js';
import { notedHeightChanges, sceneHeightChanges } from './scene-height-changes.js';

/** Footprints may overlap this much (mm) before two objects count as one on top of the other. */
const OVERLAP_TOLERANCE_MM = 0.05;

/** The dashboard's slicing, as a scene uses it. */
export interface SlicingPath {
  /** The fallback chain, in order. */
  backends(): readonly SlicingBackend[];
  /** Where slice results are kept (`GET /api/slicer/results/:id/gcode`). */
  results: Pick<SliceResults, 'create' | 'save' | 'discard' | 'filePath'>;
  /** The profiles the dashboard resolves (bundled, user, desktop slicers'), for the bed's shape. */
  catalogue(): Promise<ProfileCatalogue>;
  /** The dashboard's printers, which a scene's slice-and-send prints on. */
  printers: Printers;
  /** The spools, named per slot when a print starts; null when none are known. */
  spools: SpoolDirectory | null;
}

export interface SceneSliceOptions {
  printer_id?: string;
  filament_ids?: string[];
  process_id?: string;
  overrides?: Record<string, unknown>;
  /** Settings that change with height, above the bed; given, they replace the scene's calibration pieces' own. */
  height_changes?: HeightChange[];
}

/** A scene checked and placed, ready to slice. */
export interface PreparedScene {
  name: string;
  request: SliceProfiles;
  placed: PlacedObject[];
  bed: Bed | null;
  heightChanges: HeightChange[];
}

export interface Bed {
  printerId: string;
  area: Point[];
  height: number;
  /** The centre and the size of the printable area's bounding box. */
  centre: Point;
  size: Point;
}

/** The profiles of one slice, each given or the scene's. */
export interface SliceProfiles {
  printer_id: string;
  filament_ids: string[];
  process_id: string;
  overrides: Record<string, unknown>;
}

const mm = (value: number): string => String(Number(value.toFixed(1)));

export class SceneSlicing {
  constructor(
    private readonly scenes: SceneStore,
    private readonly jobs: ModelJobs,
    private readonly slicing: SlicingPath,
    /** Where a scene's 3MF is written for the slicer, in a folder of its own per slice. */
    private readonly workDir: string,
  ) {}

  /** The scene's objects placed relative to the bed's centre; refused when an object is missing. */
  private async place(sceneId: string): Promise<PlacedObject[]> {
    const scene = this.scenes.get(sceneId);
    const missing = scene.objects.filter((o) => o.missing !== null);
    if (missing.length > 0) {
      const names = missing.map((o) => `"${o.name}" (${o.missing})`).join(', ');
      throw new AppError(ErrorCode.conflict, 409, `scene ${scene.id} has missing objects: ${names}`, { missing: missing.map((o) => o.name) });
    }
    if (scene.objects.length === 0) throw new AppError(ErrorCode.conflict, 409, `scene ${scene.id} has no objects`);
    const kernel = await manifoldKernel();
    const placed: PlacedObject[] = [];
    for (const object of scene.objects) placed.push(await placeObject(kernel, object.name, await this.jobs.mesh(object.job_id), object.transform));
    return placed;
  }

  /** The bed of a printer profile the dashboard knows; null for one it does not (the slicer service's own). */
  private async bed(request: SliceProfiles): Promise<Bed | null> {
    let config: PrintConfig;
    try {
      config = resolveJobConfig(await this.slicing.catalogue(), {
        printerId: request.printer_id,
        filamentIds: request.filament_ids,
        processId: request.process_id,
        overrides: request.overrides,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.profileNotFound) return null;
      throw err;
    }
    return bedOf(request.printer_id, config.printable_area, config.printable_height);
  }

  /** The placed scene as a 3MF: on the bed when it is known, else without build positions. */
  private file(placed: readonly PlacedObject[], bed: Bed | null): Uint8Array {
    const objects: ThreeMfObject[] = placed.map((o) => {
      if (bed === null) return { name: o.name, mesh: shifted(o.mesh, o.offset) };
      return { name: o.name, mesh: o.mesh, translation: [bed.centre[0] + o.offset[0], bed.centre[1] + o.offset[1], 0] };
    });
    return threeMfObjects(objects);
  }

  /** The scene's 3MF for a download: on the bed of `printerId` (default: the scene's printer) when the dashboard knows it. */
  async download(sceneId: string, printerId: string | undefined): Promise<Uint8Array> {
    const scene = this.scenes.get(sceneId);
    const placed = await this.place(sceneId);
    const printer = printerId ?? scene.printer_id;
    const bed = printer === null ? null : await this.bedOf(printer);
    return this.file(placed, bed);
  }

  /**
   * Lays the objects out on the bed of `printerId` (default: the scene's printer profile) with
   * `spacing` mm between them (arrange.ts) and stores their new places; rotations stay.
   */
  async arrange(sceneId: string, printerId: string | undefined, spacing: number): Promise<SceneView> {
    const scene = this.scenes.get(sceneId);
    const printer = printerId ?? scene.printer_id;
    if (printer === null) {
      throw validationError([{ path: 'body/printer_id', message: 'is required: the scene has no printer profile whose bed to arrange on' }]);
    }
    const bed = await this.bedOf(printer);
    if (bed === null) throw new AppError(ErrorCode.profileNotFound, 404, `unknown printer profile "${printer}"`, { id: printer, kind: 'printer' });
    const placed = await this.place(sceneId);
    const footprints = placed.map((o): Footprint => {
      const xs = o.footprint.map((p) => p[0]);
      const ys = o.footprint.map((p) => p[1]);
      const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      return { size: [maxX - minX, maxY - minY], centre: [(minX + maxX) / 2 - o.offset[0], (minY + maxY) / 2 - o.offset[1]] };
    });
    const offsets = arrange(footprints, bed.size, spacing);
    if (offsets === null) {
      throw new AppError(
        ErrorCode.modelOutsideBed,
        422,
        `the ${placed.length} objects do not fit on the bed of "${printer}" (${mm(bed.size[0])} x ${mm(bed.size[1])} mm) ` +
          `with ${mm(spacing)} mm between them`,
        { printable_area: bed.area },
      );
    }
    return this.scenes.move(sceneId, offsets);
  }

  /**
   * Everything checked before a slice, so a route can answer a mistake before it opens an event
   * stream: the profiles, the objects placed, no overlap, inside the bed, the height changes.
   */
  async prepare(sceneId: string, options: SceneSliceOptions): Promise<PreparedScene> {
    const scene = this.scenes.get(sceneId);
    const profiles = {
      printer_id: options.printer_id ?? scene.printer_id,
      filament_ids: options.filament_ids ?? scene.filament_ids,
      process_id: options.process_id ?? scene.process_id,
    };
    const unset = Object.entries(profiles).filter(([, value]) => value === null);
    if (unset.length > 0) {
      throw validationError(unset.map(([key]) => ({ path: `body/${key}`, message: 'is required: the scene has none to slice with' })));
    }
    const request: SliceProfiles = {
      printer_id: profiles.printer_id as string,
      filament_ids: profiles.filament_ids as string[],
      process_id: profiles.process_id as string,
      overrides: options.overrides ?? {},
    };
    const placed = await this.place(sceneId);
    refuseOverlaps(placed);
    const bed = await this.bed(request);
    if (bed !== null) refuseOffBed(placed, bed);
    // The request's own list wins, even an empty one (a calibration piece sliced without its changes).
    const heightChanges =
      options.height_changes ??
      sceneHeightChanges(
        placed.map((o, i) => ({
          name: o.name,
          heights: o.heights,
          changes: notedHeightChanges(this.jobs.get(scene.objects[i].job_id).result?.notes),
        })),
      );
    return { name: scene.name, request, placed, bed, heightChanges };
  }

  /** Slices a prepared scene through the chain into a new stored result. */
  async run(prepared: PreparedScene, owner: JobOwner, signal: AbortSignal, onProgress?: ProgressListener): Promise<StoredResult> {
    const { request, placed, bed } = prepared;
    const { id, dir } = await this.slicing.results.create();
    const work = path.join(this.workDir, id);
    try {
      await mkdir(work, { mode: 0o700 });
      const modelName = `${fileStem(prepared.name)}.3mf`;
      const modelPath = path.join(work, 'scene.3mf');
      await writeFile(modelPath, this.file(placed, bed), { mode: 0o600 });
      const result = await sliceWithFallback(this.slicing.backends(), {
        modelPath,
        modelName,
        printerId: request.printer_id,
        filamentIds: request.filament_ids,
        processId: request.process_id,
        overrides: request.overrides,
        ...(prepared.heightChanges.length > 0 ? { heightChanges: prepared.heightChanges } : {}),
        outputDir: dir,
        owner,
        signal,
        ...(onProgress ? { onProgress } : {}),
      });
      return await this.slicing.results.save(id, result, owner);
    } catch (err) {
      await this.slicing.results.discard(id);
      throw err;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async slice(sceneId: string, options: SceneSliceOptions, owner: JobOwner, signal: AbortSignal): Promise<StoredResult> {
    return this.run(await this.prepare(sceneId, options), owner, signal);
  }

  /** The bed of a printer profile alone, as its settings give it (for a download, which names no filament or process). */
  private async bedOf(printerId: string): Promise<Bed | null> {
    let profile: Profile;
    try {
      profile = (await this.slicing.catalogue()).get(printerId);
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.profileNotFound) return null;
      throw err;
    }
    if (profile.kind !== 'printer') return null;
    const settings = profile.settings as Partial<PrintConfig>;
    return bedOf(
      printerId,
      settings.printable_area ?? SETTINGS.printable_area.default,
      settings.printable_height ?? SETTINGS.printable_height.default,
    );
  }
}

function bedOf(printerId: string, printableArea: readonly (readonly number[])[], height: number): Bed {
  const area = printableArea.map(([x, y]): Point => [x, y]);
  const xs = area.map((p) => p[0]);
  const ys = area.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { printerId, area, height, centre: [(minX + maxX) / 2, (minY + maxY) / 2], size: [maxX - minX, maxY - minY] };
}

/** The mesh moved by `offset` on x/y: the arrangement around the origin, for a slicer that centres it. */
function shifted(mesh: PlacedObject['mesh'], [dx, dy]: Point): PlacedObject['mesh'] {
  const vertices = Float32Array.from(mesh.vertices);
  for (let i = 0; i < vertices.length; i += 3) {
    vertices[i] += dx;
    vertices[i + 1] += dy;
  }
  return { vertices, indices: mesh.indices };
}

function refuseOverlaps(placed: readonly PlacedObject[]): void {
  for (let a = 0; a < placed.length; a++) {
    for (let b = a + 1; b < placed.length; b++) {
      const depth = overlapDepth(placed[a].footprint, placed[b].footprint);
      if (depth > OVERLAP_TOLERANCE_MM) {
        throw new AppError(
          ErrorCode.conflict,
          409,
          `objects "${placed[a].name}" and "${placed[b].name}" overlap on the bed (by ${mm(depth)} mm); move them apart or arrange the scene`,
          { objects: [placed[a].name, placed[b].name], overlap_mm: Number(depth.toFixed(2)) },
        );
      }
    }
  }
}

function refuseOffBed(placed: readonly PlacedObject[], bed: Bed): void {
  const bedSize = `${mm(bed.size[0])} x ${mm(bed.size[1])} mm, ${mm(bed.height)} mm high`;
  for (const object of placed) {
    const outside = object.footprint.find(([x, y]) => !insidePolygon([bed.centre[0] + x, bed.centre[1] + y], bed.area));
    if (outside === undefined && object.size[2] <= bed.height + 1e-6) continue;
    const where =
      outside === undefined ? `is ${mm(object.size[2])} mm high` : `reaches x ${mm(outside[0])}, y ${mm(outside[1])} mm from the bed's centre`;
    throw new AppError(
      ErrorCode.modelOutsideBed,
      422,
      `object "${object.name}" does not fit the printable area of "${bed.printerId}" (${bedSize}): it ${where}`,
      { object: object.name, size_mm: object.size.map((s) => Number(s.toFixed(2))), printable_area: bed.area, printable_height: bed.height },
    );
  }
}

/** A scene's name as a file name the slicers and printers take: ASCII letters, digits and `._()+-`. */
function fileStem(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._()+-]/g, '_')
      .replace(/\.{2,}/g, '.')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 80) || 'scene'
  );
}
