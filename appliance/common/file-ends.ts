/**
 * The first and the last bytes of a file as text, for readers of what a G-code file says about
 * itself in its header and its footer (settings, statistics) without reading the moves between.
 */
import { open } from 'node:fs/promises';

export interface FileEnds {
  /** The first bytes alone (where slicers write who they are). */
  head: string;
  /** The text of both: joined at a line break when bytes between them were skipped, as they are otherwise. */
  text: string;
}

/** The first `headBytes` and the last `tailBytes` of the file (latin1); the tail never overlaps the head. */
export async function readFileEnds(path: string, headBytes: number, tailBytes: number): Promise<FileEnds> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (position: number, length: number): Promise<string> => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.toString('latin1', 0, bytesRead);
    };
    const head = await read(0, Math.min(size, headBytes));
    const tailStart = Math.max(headBytes, size - tailBytes);
    const tail = tailStart >= size ? '' : await read(tailStart, size - tailStart);
    return { head, text: tailStart > headBytes ? `${head}\n${tail}` : head + tail };
  } finally {
    await handle.close();
  }
}
