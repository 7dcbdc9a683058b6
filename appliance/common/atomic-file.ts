/**
 * The durable replace of a file that every state write rests on: a temporary file that is
 * fsynced, renamed over the real one, then the directory fsynced so the rename itself survives
 * power loss (an SD card that loses power otherwise holds an empty or torn file).
 */
import { open, rename } from 'node:fs/promises';
import path from 'node:path';

/** fsyncs a file (`flags` 'r+') or a directory (`flags` 'r', after a rename or unlink in it). */
export async function fsyncPath(target: string, flags: string): Promise<void> {
  const handle = await open(target, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `file` with `text` so that after a crash it holds either the old or the new text. */
export async function replaceFileDurably(file: string, text: string | Buffer): Promise<void> {
  const temp = `${file}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await fsyncPath(path.dirname(file), 'r');
}
