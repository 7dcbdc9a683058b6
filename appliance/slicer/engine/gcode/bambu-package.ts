/**
 * Writes the `.gcode.3mf` Bambu printers print from. The G-code (tens of MB) is streamed from disk
 * into the ZIP in 1 MiB chunks and hashed on the way; only the small parts are built in memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from 'fflate';
import { asStorageError } from '../../../common/disk-space.js';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { PrintConfig } from '../../profiles/schema.js';
import {
  GCODE_PART,
  PICK_PART,
  PLATE_JSON_PART,
  SMALL_THUMBNAIL_PART,
  THUMBNAIL_PART,
  TOP_PART,
  contentTypesXml,
  modelSettingsRelsXml,
  modelSettingsXml,
  modelXml,
  plateJson,
  projectSettingsJson,
  rootRelsXml,
  sliceInfoXml,
  type BambuObject,
  type BambuPlate,
  type BambuPresetNames,
} from './bambu-package-parts.js';

export type { BambuFilament, BambuObject, BambuPlate, BambuPresetNames } from './bambu-package-parts.js';

/** The plate's pictures: Bambu Studio's sizes are 512 x 512, and 128 x 128 for the list icon. */
export interface PlatePictures {
  /** The plate from the front, lit (plate_1.png). */
  png: Uint8Array;
  /** The same, small (plate_1_small.png). */
  small_png: Uint8Array;
  /** The whole bed from above, lit (top_1.png). */
  top_png: Uint8Array;
  /** The whole bed from above, each object flat in its identify_id colour (pick_1.png). */
  pick_png: Uint8Array;
}

export interface Gcode3mfInput {
  gcodePath: string;
  outputPath: string;
  config: PrintConfig;
  /** Printyard version, recorded as the package's Application. */
  version: string;
  plate: BambuPlate;
  thumbnails: PlatePictures;
  objects: BambuObject[];
  presets?: BambuPresetNames;
}

export interface Gcode3mfResult {
  /** Uppercase hex MD5 of the G-code, as stored in Metadata/plate_1.gcode.md5. */
  gcodeMd5: string;
  sizeBytes: number;
}

const READ_CHUNK = 1 << 20;
/** Deflate level for the G-code: most of level 9's ratio on G-code at a fraction of its time on a Pi. */
const GCODE_LEVEL = 3;

export async function writeGcode3mf(input: Gcode3mfInput): Promise<Gcode3mfResult> {
  if (input.config.printer_model_id.trim() === '') {
    throw new AppError(
      ErrorCode.invalidSetting,
      400,
      'invalid value for setting "printer_model_id": a Bambu package needs the printer model id (e.g. C12 for the P1S)',
      { key: 'printer_model_id' },
    );
  }
  const ids = input.objects.map((o) => o.id);
  if (ids.some((id) => !Number.isInteger(id) || id <= 0) || new Set(ids).size !== ids.length) {
    // Bambu Studio reads 0 as "no id", and the printer skips by id: a bad id skips the wrong object.
    throw new AppError(ErrorCode.internal, 500, `object identify_ids must be unique and above 0, got ${ids.join(',')}`);
  }
  const out = createWriteStream(input.outputPath);
  let zipError: Error | null = null;
  let bytes = 0;
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      zipError = err;
      out.destroy(err);
      return;
    }
    bytes += chunk.length;
    out.write(chunk);
    if (final) out.end();
  });
  try {
    const gcodeMd5 = await addGcode(zip, input.gcodePath, out);
    addSmallParts(zip, input, gcodeMd5);
    zip.end();
    await finished(out);
    if (zipError) throw zipError;
    return { gcodeMd5, sizeBytes: bytes };
  } catch (err) {
    zip.terminate();
    out.destroy();
    if (!out.closed) await once(out, 'close');
    rmSync(input.outputPath, { force: true });
    const storage = asStorageError(err);
    if (storage instanceof AppError) throw storage;
    throw new AppError(ErrorCode.internal, 500, `writing ${input.outputPath} failed: ${(err as Error).message}`);
  }
}

async function addGcode(zip: Zip, gcodePath: string, out: NodeJS.WritableStream & { writableNeedDrain: boolean }): Promise<string> {
  const entry = new ZipDeflate(GCODE_PART, { level: GCODE_LEVEL });
  zip.add(entry);
  const md5 = createHash('md5');
  for await (const chunk of createReadStream(gcodePath, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>) {
    md5.update(chunk);
    entry.push(chunk);
    if (out.writableNeedDrain) await once(out, 'drain');
  }
  entry.push(new Uint8Array(0), true);
  return md5.digest('hex').toUpperCase();
}

function addText(zip: Zip, name: string, text: string): void {
  const entry = new ZipDeflate(name, { level: 6 });
  zip.add(entry);
  entry.push(strToU8(text), true);
}

function addStored(zip: Zip, name: string, data: Uint8Array): void {
  const entry = new ZipPassThrough(name);
  zip.add(entry);
  entry.push(data, true);
}

function addSmallParts(zip: Zip, input: Gcode3mfInput, gcodeMd5: string): void {
  addStored(zip, `${GCODE_PART}.md5`, strToU8(gcodeMd5));
  addText(zip, '[Content_Types].xml', contentTypesXml());
  addText(zip, '_rels/.rels', rootRelsXml());
  addText(zip, '3D/3dmodel.model', modelXml(input.version));
  addText(zip, 'Metadata/model_settings.config', modelSettingsXml());
  addText(zip, 'Metadata/_rels/model_settings.config.rels', modelSettingsRelsXml());
  addText(zip, 'Metadata/slice_info.config', sliceInfoXml(input.config, input.plate, input.objects));
  addText(zip, 'Metadata/project_settings.config', projectSettingsJson(input.config, input.presets));
  addText(zip, PLATE_JSON_PART, plateJson(input.config, input.plate, input.objects));
  addStored(zip, THUMBNAIL_PART, input.thumbnails.png);
  addStored(zip, SMALL_THUMBNAIL_PART, input.thumbnails.small_png);
  addStored(zip, TOP_PART, input.thumbnails.top_png);
  addStored(zip, PICK_PART, input.thumbnails.pick_png);
}
