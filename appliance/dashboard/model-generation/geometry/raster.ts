/**
 * An uploaded picture as brightness: PNG (pngjs) or JPEG (jpeg-js, pure JavaScript), told apart
 * by their first bytes, decoded to one luminance value per pixel (0 = black, 1 = white), with
 * transparent pixels seen against white (a lithophane's light behind it). Sampling averages the
 * pixels each grid cell covers (a summed-area table), so a large photo on a coarse grid is not
 * aliased.
 */
import { decode as decodeJpeg } from 'jpeg-js';
import { PNG } from 'pngjs';

/** Larger pictures are refused before a mesh is thought of: 25 megapixels is a large phone photo. */
export const MAX_IMAGE_MEGAPIXELS = 25;

export type ImageFormat = 'png' | 'jpeg';

export interface Brightness {
  format: ImageFormat;
  width: number;
  height: number;
  /** Row-major, row 0 at the top of the picture, 0..1. */
  values: Float32Array;
}

/** A picture that is not PNG or JPEG, is broken, or is too large: the message says which. */
export class ImageError extends Error {}

export function imageFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Width and height from a JPEG's frame header (the first SOF marker). */
function jpegSize(bytes: Uint8Array): [number, number] {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) throw new ImageError('the JPEG is broken: a marker was expected');
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) return [(bytes[at + 7] << 8) | bytes[at + 8], (bytes[at + 5] << 8) | bytes[at + 6]];
    at += 2 + length;
  }
  throw new ImageError('the JPEG is truncated before its frame header');
}

/**
 * The format and size from the file's first bytes, without decoding it: cheap enough to check an
 * upload while the request waits (the whole picture is decoded by the job).
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const format = imageFormat(bytes);
  if (!format) throw new ImageError('the body is not a PNG or JPEG picture');
  let size: [number, number];
  if (format === 'png') {
    if (bytes.length < 33) throw new ImageError('the PNG is truncated');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    size = [view.getUint32(16), view.getUint32(20)];
  } else {
    size = jpegSize(bytes);
  }
  const [width, height] = size;
  if (width < 2 || height < 2) throw new ImageError('the picture must be at least 2 × 2 pixels');
  if (width * height > MAX_IMAGE_MEGAPIXELS * 1e6) throw new ImageError(`the picture has more than ${MAX_IMAGE_MEGAPIXELS} megapixels`);
  return { format, width, height };
}

function decodeRgba(bytes: Uint8Array, format: ImageFormat): { width: number; height: number; data: Uint8Array } {
  try {
    if (format === 'png') {
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return { width: png.width, height: png.height, data: png.data };
    }
    return decodeJpeg(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_IMAGE_MEGAPIXELS, maxMemoryUsageInMB: 512 });
  } catch (err) {
    throw new ImageError(`the ${format === 'png' ? 'PNG' : 'JPEG'} could not be decoded: ${(err as Error).message}`);
  }
}

/** Decodes a PNG or JPEG to brightness; throws ImageError for anything else. */
export function readBrightness(bytes: Uint8Array): Brightness {
  const { format } = readImageHeader(bytes);
  const { width, height, data } = decodeRgba(bytes, format);
  const values = new Float32Array(width * height);
  for (let p = 0; p < values.length; p++) {
    // Rec. 709 luma on the stored (gamma-encoded) values: how light a pixel looks.
    const luma = (0.2126 * data[p * 4] + 0.7152 * data[p * 4 + 1] + 0.0722 * data[p * 4 + 2]) / 255;
    const alpha = data[p * 4 + 3] / 255;
    values[p] = luma * alpha + (1 - alpha);
  }
  return { format, width, height, values };
}

/** Averages of the picture over rectangles of pixels, each in constant time. */
export class BrightnessSampler {
  private readonly sums: Float64Array;
  private readonly stride: number;

  constructor(private readonly image: Brightness) {
    this.stride = image.width + 1;
    this.sums = new Float64Array(this.stride * (image.height + 1));
    for (let y = 0; y < image.height; y++) {
      let row = 0;
      for (let x = 0; x < image.width; x++) {
        row += image.values[y * image.width + x];
        this.sums[(y + 1) * this.stride + x + 1] = this.sums[y * this.stride + x + 1] + row;
      }
    }
  }

  /**
   * The mean brightness of the cell centred at (u, v) of the picture (0..1 across, 0..1 down)
   * that is `cellU` × `cellV` of the picture wide and high; at least one pixel.
   */
  mean(u: number, v: number, cellU: number, cellV: number): number {
    const { width, height } = this.image;
    const span = (centre: number, cell: number, size: number): [number, number] => {
      const half = Math.max(cell * size, 1) / 2;
      const from = Math.min(size - 1, Math.max(0, Math.round(centre * size - half)));
      return [from, Math.min(size, Math.max(from + 1, Math.round(centre * size + half)))];
    };
    const [x0, x1] = span(u, cellU, width);
    const [y0, y1] = span(v, cellV, height);
    const s = this.sums;
    const total = s[y1 * this.stride + x1] - s[y0 * this.stride + x1] - s[y1 * this.stride + x0] + s[y0 * this.stride + x0];
    return total / ((x1 - x0) * (y1 - y0));
  }
}
