/** Whether a path exists: false only when it does not; any other failure (permissions, I/O) is thrown. */
import { stat } from 'node:fs/promises';

export async function pathExists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
