/**
 * Thumbnails embedded in G-code, in the format PrusaSlicer writes and Moonraker, OctoPrint plugins
 * and Prusa/Klipper screens read: a `;` line, `; thumbnail begin WxH LEN`, the PNG in base64 on
 * `; ` lines of 78 characters, `; thumbnail end`, `;`. We render PNG only.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';

export interface ThumbnailSize {
  width: number;
  height: number;
}

export interface ThumbnailImage extends ThumbnailSize {
  png: Uint8Array;
}

/** PrusaSlicer's row length for the base64 payload. */
const BASE64_ROW = 78;
const MAX_SIDE = 2048;
const ENTRY = /^(\d+)\s*x\s*(\d+)(?:\s*\/\s*([A-Za-z_]+))?$/;
const OTHER_FORMATS = new Set(['JPG', 'JPEG', 'QOI', 'COLPIC', 'BTT_TFT']);

function invalid(message: string): AppError {
  return new AppError(ErrorCode.invalidSetting, 400, `invalid value for setting "thumbnails": ${message}`, { key: 'thumbnails' });
}

/**
 * Parses `thumbnails` as PrusaSlicer 2.6+ ("48x48/PNG, 300x300/PNG") or older ("300x300,96x96")
 * write it. Other formats are rejected here, when the configuration is checked, not mid-slice.
 */
export function parseThumbnailSpec(spec: string): ThumbnailSize[] {
  const sizes: ThumbnailSize[] = [];
  for (const raw of spec.split(/[,;]/)) {
    const entry = raw.trim();
    if (entry === '') continue;
    const m = ENTRY.exec(entry);
    if (!m) throw invalid(`"${entry}" is not WIDTHxHEIGHT or WIDTHxHEIGHT/PNG`);
    const format = (m[3] ?? 'PNG').toUpperCase();
    if (OTHER_FORMATS.has(format)) throw invalid(`format ${format} in "${entry}" is not supported; only PNG thumbnails are produced`);
    if (format !== 'PNG') throw invalid(`unknown thumbnail format "${m[3]}" in "${entry}"`);
    const width = Number(m[1]);
    const height = Number(m[2]);
    if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
      throw invalid(`"${entry}": each side must be 1 to ${MAX_SIDE} pixels`);
    }
    sizes.push({ width, height });
  }
  return sizes;
}

/**
 * The comment block for the given images. With `bambuMarkers` it is wrapped in
 * `; THUMBNAIL_BLOCK_START` / `; THUMBNAIL_BLOCK_END` as OrcaSlicer and Bambu Studio do.
 */
export function thumbnailBlock(images: readonly ThumbnailImage[], options: { bambuMarkers?: boolean } = {}): string {
  if (images.length === 0) return '';
  const parts: string[] = [];
  if (options.bambuMarkers) parts.push('; THUMBNAIL_BLOCK_START\n');
  for (const image of images) {
    const base64 = Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength).toString('base64');
    parts.push(`;\n; thumbnail begin ${image.width}x${image.height} ${base64.length}\n`);
    for (let i = 0; i < base64.length; i += BASE64_ROW) parts.push(`; ${base64.slice(i, i + BASE64_ROW)}\n`);
    parts.push('; thumbnail end\n;\n');
  }
  if (options.bambuMarkers) parts.push('; THUMBNAIL_BLOCK_END\n');
  parts.push('\n');
  return parts.join('');
}
