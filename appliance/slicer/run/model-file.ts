/**
 * A cheap look at an uploaded model before it is queued: the format is told by content, as the
 * engine's loader does (zip magic for 3MF, size or text for STL), from the first kilobyte and
 * the size only. A file that is no model at all is refused at once with 415; whether its content
 * is sound is for the engine to find out.
 */
import { open } from 'node:fs/promises';
import { AppError, ErrorCode } from '../../common/errors.js';
import { isZip } from '../../common/zip.js';
import { looksLikeAsciiStl, looksLikeBinaryStl } from '../engine/mesh/stl.js';

export type ModelFormat = '3mf' | 'stl';

const HEAD_BYTES = 1024;
const STL_HEADER = 84;
const STL_FACET = 50;

export function modelFormatOf(head: Uint8Array, size: number, fileName: string): ModelFormat {
  if (size === 0) throw new AppError(ErrorCode.badModel, 422, 'the model file is empty');
  if (isZip(head)) return '3mf';
  if (size >= STL_HEADER && head.length >= STL_HEADER) {
    const facets = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(80, true);
    if (STL_HEADER + STL_FACET * facets === size) return 'stl';
  }
  if (looksLikeAsciiStl(head) || looksLikeBinaryStl(head, fileName)) return 'stl';
  throw new AppError(ErrorCode.unsupportedModel, 415, `"${fileName || 'model'}" is neither an STL (binary or ASCII) nor a 3MF file`);
}

export async function sniffModelFile(file: string, size: number, fileName: string): Promise<ModelFormat> {
  const handle = await open(file, 'r');
  try {
    const head = new Uint8Array(Math.min(HEAD_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    return modelFormatOf(head, size, fileName);
  } finally {
    await handle.close();
  }
}
