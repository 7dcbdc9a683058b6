/**
 * The built web app held in memory: every file of the output folder with its gzip and brotli
 * forms (written beside it at build time, so a Raspberry Pi never compresses per request), its
 * content type, and whether its name carries a content hash (then it never changes and
 * is cached for a year). The app is ~100 KB compressed, so reading it once at start costs less than
 * a file system round trip per request would.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export type Encoding = 'br' | 'gzip' | 'identity';

export interface StaticFile {
  readonly contentType: string;
  /** The name has a content hash (`main-3F2A9C1D.js`): cache forever. */
  readonly immutable: boolean;
  readonly bodies: Readonly<Partial<Record<Encoding, Buffer>>> & { readonly identity: Buffer };
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** esbuild's `[name]-[hash]`: eight characters of base32. */
const HASHED_NAME = /-[A-Z2-7]{8}\.[a-z0-9]+$/;

/** The compressed forms written by the build, by suffix. */
const COMPRESSED: ReadonlyArray<[suffix: string, encoding: Encoding]> = [
  ['.br', 'br'],
  ['.gz', 'gzip'],
];

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await filesUnder(path.join(dir, entry.name), rel)));
    else out.push(rel);
  }
  return out;
}

/** Reads the output folder: URL path (`/assets/main-….js`) → file. Throws when the folder is missing. */
export async function loadStaticFiles(dir: string): Promise<Map<string, StaticFile>> {
  const names = await filesUnder(dir);
  const present = new Set(names);
  const files = new Map<string, StaticFile>();
  for (const name of names) {
    if (COMPRESSED.some(([suffix]) => name.endsWith(suffix) && present.has(name.slice(0, -suffix.length)))) continue;
    const identity = await readFile(path.join(dir, name));
    const bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer } = { identity };
    for (const [suffix, encoding] of COMPRESSED) {
      if (present.has(name + suffix)) bodies[encoding] = await readFile(path.join(dir, name + suffix));
    }
    files.set(name, {
      contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
      immutable: HASHED_NAME.test(name),
      bodies,
    });
  }
  return files;
}

/** The best form of `file` that `acceptEncoding` allows: brotli, then gzip, then as is. */
export function chooseEncoding(file: StaticFile, acceptEncoding: string | undefined): Encoding {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.split(';'))
      .filter(([, q]) => q === undefined || !/^\s*q=0(\.0*)?\s*$/.test(q))
      .map(([name]) => name.trim().toLowerCase()),
  );
  if (file.bodies.br && accepted.has('br')) return 'br';
  if (file.bodies.gzip && accepted.has('gzip')) return 'gzip';
  return 'identity';
}
