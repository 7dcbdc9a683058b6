/**
 * The box id: 32 random hex digits made on the first start and kept in `<data dir>/box-id`, so
 * that other boxes and clients can tell this box from another one of the same name (it is in
 * the mDNS TXT records). A file that does not hold an id (damaged, edited) is replaced by a new
 * one and the old content moved aside, as the JSON stores do.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';

export const BOX_ID_FILE = 'box-id';
const BOX_ID = /^[0-9a-f]{32}$/;

export async function loadBoxId(dataDir: string, log: Logger): Promise<string> {
  const file = path.join(dataDir, BOX_ID_FILE);
  let text: string | null = null;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (text !== null && BOX_ID.test(text)) return text;
  if (text !== null) {
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(file, aside);
    log.error(`${BOX_ID_FILE} did not hold a box id; moved to ${path.basename(aside)}, a new id is made`);
  }
  const id = randomBytes(16).toString('hex');
  await writeFileAtomic(file, `${id}\n`);
  return id;
}
