/**
 * The printer's SD card: a folder on disk seen through FTP paths. Paths are POSIX, absolute from
 * the card's root; `..` cannot climb out of it. The printer addresses the same files as
 * `ftp:///name.3mf`, `file:///sdcard/name.3mf` or `file:///mnt/sdcard/name.3mf`.
 */
import { mkdirSync, type Stats } from 'node:fs';
import path from 'node:path';

/** Folders a Bambu printer keeps on its card. */
const STANDARD_FOLDERS = ['cache', 'timelapse'];
const SD_PREFIXES = ['/mnt/sdcard', '/sdcard'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HALF_YEAR_MS = 182 * 24 * 3600 * 1000;

export class SdCard {
  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
    for (const folder of STANDARD_FOLDERS) mkdirSync(path.join(root, folder), { recursive: true });
  }

  /** The card path of `arg` seen from `cwd` (both card paths). */
  virtualPath(cwd: string, arg: string): string {
    return path.posix.resolve(cwd, arg);
  }

  realPath(virtual: string): string {
    return path.join(this.root, path.posix.resolve('/', virtual));
  }

  /**
   * The card path a print command names: a `url` (`ftp:///a.3mf`, `ftp://a.3mf`,
   * `file:///sdcard/a.3mf`, `file:///mnt/sdcard/a.3mf`) or a plain path. A URL that names only the
   * card (`file:///mnt/sdcard`) is completed with `file`. Null when it points elsewhere.
   */
  locate(url: string, file = ''): string | null {
    let rest: string;
    if (url.startsWith('ftp://')) rest = url.slice('ftp://'.length);
    else if (url.startsWith('file://')) {
      rest = url.slice('file://'.length);
      const prefix = SD_PREFIXES.find((p) => rest === p || rest.startsWith(`${p}/`));
      if (prefix === undefined) return null;
      rest = rest.slice(prefix.length);
    } else if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return null;
    else rest = url;
    const prefix = SD_PREFIXES.find((p) => rest === p || rest.startsWith(`${p}/`));
    if (prefix !== undefined) rest = rest.slice(prefix.length);
    let decoded: string;
    try {
      decoded = decodeURIComponent(rest);
    } catch {
      return null;
    }
    if (decoded.replace(/\/+$/, '') === '' && file !== '') decoded = file;
    const virtual = path.posix.resolve('/', decoded);
    return virtual === '/' ? null : virtual;
  }
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** One line of a `LIST`, in the `ls -l` form vsftpd sends. */
export function listLine(name: string, stats: Stats, now = Date.now()): string {
  const kind = stats.isDirectory() ? 'd' : '-';
  const mode = stats.isDirectory() ? 'rwxr-xr-x' : 'rw-r--r--';
  const t = stats.mtime;
  const recent = Math.abs(now - t.getTime()) < HALF_YEAR_MS;
  const timeOrYear = recent ? `${pad2(t.getUTCHours())}:${pad2(t.getUTCMinutes())}` : ` ${t.getUTCFullYear()}`;
  const when = `${MONTHS[t.getUTCMonth()]} ${String(t.getUTCDate()).padStart(2, ' ')} ${timeOrYear}`;
  return `${kind}${mode}    1 0        0     ${String(stats.size).padStart(11, ' ')} ${when} ${name}`;
}

/** `YYYYMMDDhhmmss` in UTC, as MDTM and MLSD give times. */
export function ftpTime(date: Date): string {
  return (
    `${date.getUTCFullYear()}${pad2(date.getUTCMonth() + 1)}${pad2(date.getUTCDate())}` +
    `${pad2(date.getUTCHours())}${pad2(date.getUTCMinutes())}${pad2(date.getUTCSeconds())}`
  );
}

/** One line of an `MLSD`. */
export function mlsdLine(name: string, stats: Stats): string {
  const type = stats.isDirectory() ? 'dir' : 'file';
  return `type=${type};size=${stats.size};modify=${ftpTime(stats.mtime)}; ${name}`;
}
