/**
 * The zip (Open Packaging Conventions) layer of 3MF: unpacking the parts a slicer needs, within
 * limits on what they inflate to, and following `_rels/.rels` to the start model part and to the
 * package thumbnail.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { InflateLimitError, unzip, type InflateLimits } from '../../../common/zip.js';
import { badModel } from './errors.js';
import { XmlScanner } from './xml.js';

const MODEL_RELATIONSHIP = 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel';
const THUMBNAIL_RELATIONSHIP = 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail';
const DEFAULT_START_PART = '3D/3dmodel.model';
const DEFAULT_THUMBNAIL = 'Metadata/thumbnail.png';
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Parts worth inflating; G-code, textures and slicer project files in big packages are skipped. */
const WANTED_PART = /\.(rels|model|config|png)$/i;

const MB = 1024 * 1024;

/**
 * What the parts read from one package may inflate to, unless the caller says otherwise. Real
 * packages inflate to 4-8 times their size (the corpus's rigid3d platform 4.4, PrusaSlicer 2.5
 * exports of the corpus's meshes 5.8-7.4; mesh XML compresses about 7:1) and deflate reaches about
 * 1030:1 at most, so 100:1 is far above any model and far below a zip bomb. 512 MB of XML is a
 * model of some six million triangles, more than a Pi slices in reasonable time.
 */
export const DEFAULT_3MF_LIMITS: InflateLimits = { maxBytes: 512 * MB, maxRatio: 100 };

/** Whole megabytes from 100 up, three significant digits below (0.109, 1.01, 51.2). */
function megabytes(bytes: number): string {
  const mb = bytes / MB;
  return String(mb >= 100 ? Math.round(mb) : Number(mb.toPrecision(3)));
}

/** 413, as an upload over the size limit: the package is too large once inflated, and the limits are the operator's. */
function tooLargeInflated(err: InflateLimitError): AppError {
  const { limits } = err;
  const message =
    err.limit === 'bytes'
      ? `the 3MF package inflates to ${megabytes(err.inflatedBytes)} MB, more than the limit of ${megabytes(limits.maxBytes)} MB`
      : `the ${megabytes(err.archiveBytes)} MB 3MF package inflates to ${megabytes(err.inflatedBytes)} MB, ` +
        `${Math.round(err.inflatedBytes / err.archiveBytes)} times its size; the limit is ${limits.maxRatio} times (a zip bomb?)`;
  return new AppError(ErrorCode.payloadTooLarge, 413, message);
}

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

  constructor(bytes: Uint8Array, limits: InflateLimits = DEFAULT_3MF_LIMITS) {
    let files: Map<string, Uint8Array>;
    try {
      files = unzip(bytes, (name) => WANTED_PART.test(name), limits);
    } catch (err) {
      if (err instanceof InflateLimitError) throw tooLargeInflated(err);
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
