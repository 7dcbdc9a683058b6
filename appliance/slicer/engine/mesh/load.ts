/**
 * Model files to a Model, whatever the format: the format is told by content (zip magic,
 * binary STL size, ASCII STL text), the file name only names the object and hints that an
 * unreadable file was meant to be an STL.
 */
import { isZip, type InflateLimits } from '../../../common/zip.js';
import { badModel, unsupportedModel } from './errors.js';
import { isBinaryStlSize, looksLikeAsciiStl, looksLikeBinaryStl, parseAsciiStl, parseBinaryStl, type StlResult } from './stl.js';
import { DEFAULT_3MF_LIMITS } from './opc.js';
import { load3mf } from './threemf.js';
import type { Model } from './types.js';

function baseName(fileName: string): string {
  const name = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  return name || 'model';
}

function stlModel(result: StlResult, format: 'stl-binary' | 'stl-ascii', fileName: string): Model {
  if (result.mesh.indices.length === 0) throw badModel(`the ${format === 'stl-binary' ? 'binary' : 'ASCII'} STL has no triangles`);
  return {
    objects: [{ name: baseName(fileName), mesh: result.mesh, filament: 1 }],
    positioned: false,
    format,
    warnings: result.warnings,
  };
}

/** `inflateLimits` bound what a 3MF's parts may inflate to (413 ERR_PAYLOAD_TOO_LARGE beyond). */
export function loadModel(bytes: Uint8Array, fileName: string, inflateLimits: InflateLimits = DEFAULT_3MF_LIMITS): Model {
  if (bytes.length === 0) throw badModel('the model file is empty');
  if (isZip(bytes)) return load3mf(bytes, inflateLimits);
  if (isBinaryStlSize(bytes)) return stlModel(parseBinaryStl(bytes), 'stl-binary', fileName);
  if (looksLikeAsciiStl(bytes)) return stlModel(parseAsciiStl(bytes), 'stl-ascii', fileName);
  if (looksLikeBinaryStl(bytes, fileName)) return stlModel(parseBinaryStl(bytes), 'stl-binary', fileName);
  throw unsupportedModel('the file is neither an STL (binary or ASCII) nor a 3MF');
}
