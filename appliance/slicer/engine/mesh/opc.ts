/**
 * The zip (Open Packaging Conventions) layer of 3MF: unpacking the parts a slicer needs,
 * following `_rels/.rels` to the start model part and to the package thumbnail.
 */
import { unzip } from '../../../common/zip.js';
import { badModel } from './errors.js';
import { XmlScanner } from './xml.js';

const MODEL_RELATIONSHIP = 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel';
const THUMBNAIL_RELATIONSHIP = 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail';
const DEFAULT_START_PART = '3D/3dmodel.model';
const DEFAULT_THUMBNAIL = 'Metadata/thumbnail.png';
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Parts worth inflating; G-code, textures and slicer project files in big packages are skipped. */
const WANTED_PART = /\.(rels|model|config|png)$/i;

/** Part names in OPC are case-insensitive and may be written with a leading slash or percent-escapes. */
export function normalizePartName(name: string): string {
  let path = name.replace(/\\/g, '/').replace(/^\/+/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // A literal '%' that is no escape: keep the name as written.
  }
  return path.toLowerCase();
}

export class Package {
  private readonly parts = new Map<string, Uint8Array>();

  constructor(bytes: Uint8Array) {
    let files: Map<string, Uint8Array>;
    try {
      files = unzip(bytes, (name) => WANTED_PART.test(name));
    } catch (err) {
      throw badModel(`the file is a zip archive that cannot be unpacked (${(err as Error).message})`);
    }
    for (const [name, data] of files) this.parts.set(normalizePartName(name), data);
  }

  read(partName: string): Uint8Array | undefined {
    return this.parts.get(normalizePartName(partName));
  }

  /** The model part the package starts from: the 3D model relationship of `_rels/.rels`, else the default name. */
  startPart(): string {
    const target = this.rootRelationships().find((r) => r.type === MODEL_RELATIONSHIP)?.target;
    const name = target ?? DEFAULT_START_PART;
    if (!this.read(name)) {
      throw badModel(
        target
          ? `the zip archive is not a usable 3MF: _rels/.rels names the model part ${target}, which is missing`
          : `the zip archive is not a 3MF: it has no ${DEFAULT_START_PART} and no 3D model relationship in _rels/.rels`,
      );
    }
    return name;
  }

  /** The PNG thumbnail the package declares, else Metadata/thumbnail.png, if present. */
  thumbnail(): Uint8Array | undefined {
    const target = this.rootRelationships().find((r) => r.type === THUMBNAIL_RELATIONSHIP)?.target;
    for (const name of target ? [target, DEFAULT_THUMBNAIL] : [DEFAULT_THUMBNAIL]) {
      const data = this.read(name);
      if (data && PNG_MAGIC.every((b, k) => data[k] === b)) return data;
    }
    return undefined;
  }

  private rootRelationships(): { type: string; target: string }[] {
    const bytes = this.read('_rels/.rels');
    if (bytes === undefined) return [];
    const scanner = new XmlScanner(bytes, '_rels/.rels');
    const out: { type: string; target: string }[] = [];
    while (scanner.next()) {
      if (scanner.kind === 'close' || scanner.name !== 'Relationship') continue;
      const type = scanner.attr('Type');
      const target = scanner.attr('Target');
      if (type !== undefined && target !== undefined) out.push({ type, target });
    }
    return out;
  }
}
