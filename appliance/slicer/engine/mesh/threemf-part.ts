/**
 * Reads one 3MF model part (`3D/3dmodel.model` or a Production-extension part such as
 * Bambu Studio's `3D/Objects/object_1.model`) into its object resources and build items.
 * Coordinates and translations are converted to millimetres with the part's `unit`.
 */
import { GrowableFloat32, GrowableUint32 } from './growable.js';
import { parseAffine, scaleTranslation, type Affine } from './transform.js';
import type { IndexedMesh } from './types.js';
import { XmlScanner } from './xml.js';

const UNIT_MM: Record<string, number> = {
  micron: 0.001,
  millimeter: 1,
  centimeter: 10,
  inch: 25.4,
  foot: 304.8,
  meter: 1000,
};

export interface ComponentRef {
  objectId: string;
  /** The model part holding the object (`p:path`), or null for the same part. */
  path: string | null;
  transform: Affine | null;
}

export interface ObjectResource {
  id: string;
  name: string;
  /** model, solidsupport, support, surface or other. */
  type: string;
  mesh: IndexedMesh | null;
  components: ComponentRef[];
}

export interface BuildItem {
  objectId: string;
  transform: Affine | null;
  printable: boolean;
}

export interface ModelPart {
  name: string;
  objects: Map<string, ObjectResource>;
  items: BuildItem[];
}

/** Names the object in a message; a mesh can outlive its object only in a malformed part. */
function describe(object: ObjectResource | null): string {
  if (!object) return 'a mesh outside its <object>';
  return object.name ? `object ${object.id} ("${object.name}")` : `object ${object.id}`;
}

export function parseModelPart(bytes: Uint8Array, partName: string): ModelPart {
  const s = new XmlScanner(bytes, partName);
  const part: ModelPart = { name: partName, objects: new Map(), items: [] };
  let scale = 1;
  let object: ObjectResource | null = null;
  let vertices: GrowableFloat32 | null = null;
  let triangles: GrowableUint32 | null = null;
  let inComponents = false;
  let inBuild = false;

  const readTransform = (): Affine | null => {
    const raw = s.attr('transform');
    if (raw === undefined) return null;
    const m = parseAffine(raw);
    if (!m) throw s.error(`<${s.name}> has a transform that is not 12 numbers: "${raw}"`);
    return scale === 1 ? m : scaleTranslation(m, scale);
  };

  while (s.next()) {
    const name = s.name;
    if (s.kind === 'close') {
      if (name === 'mesh' && object && vertices && triangles) {
        object.mesh = finishMesh(s, object, vertices, triangles);
        vertices = null;
        triangles = null;
      } else if (name === 'object' && object) {
        part.objects.set(object.id, object);
        object = null;
      } else if (name === 'components') inComponents = false;
      else if (name === 'build') inBuild = false;
      continue;
    }

    if (name === 'vertex' && vertices) {
      const x = s.attrNumber('x');
      const y = s.attrNumber('y');
      const z = s.attrNumber('z');
      if (x - x !== 0 || y - y !== 0 || z - z !== 0) {
        throw s.error(`${describe(object)}: vertex ${vertices.length / 3} (0-based) has a missing or non-finite coordinate`);
      }
      vertices.push3(x * scale, y * scale, z * scale);
    } else if (name === 'triangle' && triangles) {
      const a = s.attrIndex('v1');
      const b = s.attrIndex('v2');
      const c = s.attrIndex('v3');
      if (a < 0 || b < 0 || c < 0) {
        throw s.error(`${describe(object)}: triangle ${triangles.length / 3} (0-based) has a missing or invalid vertex index`);
      }
      triangles.push3(a, b, c);
    } else if (name === 'mesh' && object && s.kind === 'open') {
      vertices = new GrowableFloat32(4096);
      triangles = new GrowableUint32(8192);
    } else if (name === 'component' && inComponents && object) {
      const objectId = s.attr('objectid');
      if (objectId === undefined) throw s.error(`${describe(object)}: a component has no objectid`);
      const path = s.attrLocal('path');
      object.components.push({ objectId, path: path ?? null, transform: readTransform() });
    } else if (name === 'components' && object && s.kind === 'open') {
      inComponents = true;
    } else if (name === 'object') {
      const id = s.attr('id');
      if (id === undefined) throw s.error('an <object> has no id');
      if (part.objects.has(id)) throw s.error(`object id ${id} is used twice`);
      object = { id, name: s.attr('name') ?? '', type: s.attr('type') ?? 'model', mesh: null, components: [] };
      if (s.kind === 'empty') {
        part.objects.set(id, object);
        object = null;
      }
    } else if (name === 'item' && inBuild) {
      const objectId = s.attr('objectid');
      if (objectId === undefined) throw s.error('a build <item> has no objectid');
      const printable = s.attr('printable');
      part.items.push({ objectId, transform: readTransform(), printable: printable !== '0' && printable !== 'false' });
    } else if (name === 'build' && s.kind === 'open') {
      inBuild = true;
    } else if (name === 'model' && s.depth === 0) {
      const unit = s.attr('unit') ?? 'millimeter';
      if (!Object.hasOwn(UNIT_MM, unit)) throw s.error(`unknown unit "${unit}" (expected one of ${Object.keys(UNIT_MM).join(', ')})`);
      scale = UNIT_MM[unit];
    }
  }
  return part;
}

function finishMesh(s: XmlScanner, object: ObjectResource, vertices: GrowableFloat32, triangles: GrowableUint32): IndexedMesh {
  const indices = triangles.toArray();
  const vertexCount = vertices.length / 3;
  for (let k = 0; k < indices.length; k++) {
    if (indices[k] >= vertexCount) {
      throw s.error(
        `${describe(object)}: triangle ${Math.floor(k / 3)} (0-based) refers to vertex ${indices[k]}, ` +
          `but the object has ${vertexCount} vertices`,
      );
    }
  }
  return { vertices: vertices.toArray(), indices };
}
