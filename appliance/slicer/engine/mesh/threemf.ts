/**
 * 3MF packages to a Model: follows the build items of the start part through components
 * (possibly in other model parts, as Bambu Studio writes them), applies component then item
 * transforms, skips what is not meant to be printed, and picks up per-object extruders and
 * the package thumbnail.
 */
import { badModel } from './errors.js';
import type { InflateLimits } from '../../../common/zip.js';
import { DEFAULT_3MF_LIMITS, normalizePartName, Package } from './opc.js';
import { readObjectExtruders } from './threemf-config.js';
import { parseModelPart, type ModelPart, type ObjectResource } from './threemf-part.js';
import { compose, concatMeshes, identity, transformMesh, type Affine } from './transform.js';
import type { IndexedMesh, Model, ModelObject } from './types.js';

/** Object types meant to be printed; support, solidsupport, surface and other are not. */
const PRINTABLE_TYPE = 'model';
/** Deeper component chains than this are treated as a reference cycle. */
const MAX_COMPONENT_DEPTH = 32;
/** Components can reuse objects many times over; past this a package is refused rather than expanded. */
const MAX_EXPANDED_TRIANGLES = 20_000_000;

class ThreeMfReader {
  private readonly parts = new Map<string, ModelPart | null>();
  private readonly triangleCounts = new Map<ObjectResource, number>();
  readonly warnings: string[] = [];

  constructor(private readonly pkg: Package) {}

  part(name: string): ModelPart | null {
    const key = normalizePartName(name);
    let part = this.parts.get(key);
    if (part === undefined) {
      const bytes = this.pkg.read(name);
      part = bytes === undefined ? null : parseModelPart(bytes, name.replace(/^\/+/, ''));
      this.parts.set(key, part);
    }
    return part;
  }

  /**
   * Triangles the object expands to through its components, counted before anything is built:
   * objects used many times over can multiply a small file into billions of triangles.
   */
  expandedTriangles(object: ObjectResource, part: ModelPart, depth = 0): number {
    const known = this.triangleCounts.get(object);
    if (known !== undefined) return known;
    if (depth > MAX_COMPONENT_DEPTH) {
      throw badModel(`${part.name}: object ${object.id}: components nest deeper than ${MAX_COMPONENT_DEPTH} levels (a reference cycle?)`);
    }
    let count = object.mesh ? object.mesh.indices.length / 3 : 0;
    for (const component of object.components) {
      const targetPart = component.path === null ? part : this.part(component.path);
      const target = targetPart?.objects.get(component.objectId);
      // Missing targets are reported with their context by collect().
      if (targetPart && target) count += this.expandedTriangles(target, targetPart, depth + 1);
    }
    this.triangleCounts.set(object, count);
    return count;
  }

  /** Appends the meshes of an object and of everything its components reference, in world coordinates. */
  collect(object: ObjectResource, part: ModelPart, world: Affine, out: IndexedMesh[], depth: number): void {
    if (depth > MAX_COMPONENT_DEPTH) {
      throw badModel(`${part.name}: object ${object.id}: components nest deeper than ${MAX_COMPONENT_DEPTH} levels (a reference cycle?)`);
    }
    if (object.mesh) out.push(transformMesh(object.mesh, world));
    for (const component of object.components) {
      const targetPart = component.path === null ? part : this.part(component.path);
      const where = component.path === null ? '' : ` in ${component.path}`;
      const target = targetPart?.objects.get(component.objectId);
      if (!targetPart || !target) {
        throw badModel(
          `${part.name}: object ${object.id} has a component referring to object ${component.objectId}${where}, ` +
            `which does not exist${targetPart ? '' : ' (no such model part)'}`,
        );
      }
      if (target.type !== PRINTABLE_TYPE) {
        this.warnings.push(`skipped part ${target.id}${where} of object ${object.id}: object type "${target.type}" is not printed`);
        continue;
      }
      this.collect(target, targetPart, compose(component.transform ?? identity(), world), out, depth + 1);
    }
  }
}

function uniqueName(wanted: string, used: Set<string>): string {
  let name = wanted;
  for (let n = 2; used.has(name); n++) name = `${wanted} (${n})`;
  used.add(name);
  return name;
}

export function load3mf(bytes: Uint8Array, limits: InflateLimits = DEFAULT_3MF_LIMITS): Model {
  const pkg = new Package(bytes, limits);
  const startName = pkg.startPart();
  const reader = new ThreeMfReader(pkg);
  const start = reader.part(startName);
  if (!start) throw badModel(`the 3MF has no model part ${startName}`);
  if (start.items.length === 0) throw badModel(`${start.name} has no build items: the 3MF places nothing to print`);
  const extruders = readObjectExtruders(pkg);
  const objects: ModelObject[] = [];
  const names = new Set<string>();
  let positioned = false;
  let totalTriangles = 0;

  for (const item of start.items) {
    const object = start.objects.get(item.objectId);
    if (!object) throw badModel(`${start.name}: a build item refers to object ${item.objectId}, which does not exist`);
    const label = object.name || `object ${object.id}`;
    if (!item.printable) {
      reader.warnings.push(`skipped "${label}": its build item is marked not printable`);
      continue;
    }
    if (object.type !== PRINTABLE_TYPE) {
      reader.warnings.push(`skipped "${label}": object type "${object.type}" is not printed`);
      continue;
    }
    if (item.transform) positioned = true;
    const triangles = reader.expandedTriangles(object, start);
    totalTriangles += triangles;
    if (totalTriangles > MAX_EXPANDED_TRIANGLES) {
      throw badModel(`"${label}" expands to ${triangles} triangles through its components; the limit for a model is ${MAX_EXPANDED_TRIANGLES}`);
    }
    const meshes: IndexedMesh[] = [];
    reader.collect(object, start, item.transform ?? identity(), meshes, 0);
    const mesh = meshes.length === 0 ? { vertices: new Float32Array(0), indices: new Uint32Array(0) } : concatMeshes(meshes);
    if (mesh.indices.length === 0) {
      reader.warnings.push(`skipped "${label}": it has no triangles`);
      continue;
    }
    objects.push({ name: uniqueName(label, names), mesh, filament: extruders.get(object.id) ?? 1 });
  }

  if (objects.length === 0) {
    throw badModel(`the 3MF has no printable objects (${reader.warnings.join('; ')})`);
  }
  const thumbnail = pkg.thumbnail();
  const model: Model = { objects, positioned, format: '3mf', warnings: reader.warnings };
  if (thumbnail) model.thumbnail = thumbnail;
  return model;
}
