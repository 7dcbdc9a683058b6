/**
 * The pictures of the prints: the queue's PNG of the plate, copied when the print starts into
 * `<data dir>/history-thumbnails/<record id>.png` (the queue's own file may go with its job), with
 * the atomic steps of every state file. Served by GET /api/history/:id/thumbnail.png.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';

export const THUMBNAIL_DIR = 'history-thumbnails';
/** A plate picture is a few KB to a few hundred; anything larger is not one. */
export const THUMBNAIL_MAX_BYTES = 4 * 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function thumbnailUrl(id: string): string {
  return `/api/history/${id}/thumbnail.png`;
}

export class ThumbnailStore {
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly log: Logger,
  ) {
    this.dir = path.join(dataDir, THUMBNAIL_DIR);
  }

  file(id: string): string {
    return path.join(this.dir, `${id}.png`);
  }

  /** Copies a PNG for the record; its URL, or null (logged) when the source is missing or not a PNG. */
  async keep(id: string, source: string): Promise<string | null> {
    try {
      const bytes = await readFile(source);
      if (bytes.length > THUMBNAIL_MAX_BYTES || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
        this.log.warn(`thumbnail ${source} of print ${id} is not a PNG of at most ${THUMBNAIL_MAX_BYTES} bytes; not kept`);
        return null;
      }
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(this.file(id), bytes);
      return thumbnailUrl(id);
    } catch (err) {
      this.log.warn(`thumbnail ${source} of print ${id} could not be kept: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  }

  async remove(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
  }
}
