/**
 * Finds the installed desktop slicers: each known executable name (and AppImage) in the search
 * folders, first match per slicer in folder order, its version from its own help or version
 * output. Versions are cached per executable (path, size and modification time), so a probe
 * after the first only looks at the file system; the scan itself is cached for a minute.
 */
import { execFile } from 'node:child_process';
import { access, constants, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { DESKTOP_SLICERS, type DesktopSlicerId, type DesktopSlicerKind } from './slicers.js';

export interface DetectedSlicer {
  id: DesktopSlicerId;
  name: string;
  path: string;
  version: string | null;
  can_slice: boolean;
  /** Why it cannot slice, when it cannot. */
  reason?: string;
  /** Folders of this installation that hold profiles (vendor bundles, Cura definitions). */
  profile_dirs: string[];
}

export interface DetectOptions {
  /** Folders searched for the executables, in order. */
  searchDirs: readonly string[];
  /** More profile folders per slicer, e.g. Cura definitions unpacked elsewhere. */
  extraProfileDirs?: Partial<Record<DesktopSlicerId, readonly string[]>>;
  /** How long a scan is reused. */
  cacheMs?: number;
}

const VERSION_TIMEOUT_MS = 10_000;
const DEFAULT_CACHE_MS = 60_000;
/** The definition CuraEngine cannot slice without (Debian ships it in `cura`, not `cura-engine`). */
export const CURA_PRINTER_DEFINITION = 'fdmprinter.def.json';

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

function runForOutput(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(file, [...args], { timeout: VERSION_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve(`${stdout}\n${stderr}${err && !stdout && !stderr ? `\n${err.message}` : ''}`);
    });
  });
}

export class SlicerDetector {
  private readonly versions = new Map<string, Promise<string | null>>();
  private scan: { at: number; result: Promise<DetectedSlicer[]> } | null = null;

  constructor(
    private readonly options: DetectOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** The installed slicers, in the table's order; `force` scans again at once. */
  probe(force = false): Promise<DetectedSlicer[]> {
    const cacheMs = this.options.cacheMs ?? DEFAULT_CACHE_MS;
    if (force || this.scan === null || this.now() - this.scan.at >= cacheMs) {
      const result = this.detectAll();
      this.scan = { at: this.now(), result };
      result.catch(() => {
        if (this.scan?.result === result) this.scan = null;
      });
    }
    return this.scan.result;
  }

  private async detectAll(): Promise<DetectedSlicer[]> {
    const found = await Promise.all(DESKTOP_SLICERS.map((kind) => this.detect(kind)));
    return found.filter((slicer): slicer is DetectedSlicer => slicer !== null);
  }

  private async detect(kind: DesktopSlicerKind): Promise<DetectedSlicer | null> {
    const file = await this.find(kind);
    if (file === null) return null;
    const version = await this.version(kind, file);
    const profileDirs = await this.profileDirs(kind, file);
    const slicer: DetectedSlicer = { id: kind.id, name: kind.name, path: file, version, can_slice: true, profile_dirs: profileDirs };
    const reason = await this.cannotSlice(kind, version, profileDirs);
    if (reason !== null) {
      slicer.can_slice = false;
      slicer.reason = reason;
    }
    return slicer;
  }

  private async find(kind: DesktopSlicerKind): Promise<string | null> {
    for (const dir of this.options.searchDirs) {
      for (const binary of kind.binaries) {
        const file = path.join(dir, binary);
        if (await isExecutableFile(file)) return file;
      }
      const { appImage } = kind;
      if (appImage !== undefined && (await isDirectory(dir))) {
        const names = (await readdir(dir).catch(() => [] as string[]))
          .filter((name) => appImage.test(name))
          .sort()
          .reverse();
        for (const name of names) if (await isExecutableFile(path.join(dir, name))) return path.join(dir, name);
      }
    }
    return null;
  }

  private async version(kind: DesktopSlicerKind, file: string): Promise<string | null> {
    const { size, mtimeMs } = await stat(file);
    const key = `${file}\n${size}\n${mtimeMs}`;
    let version = this.versions.get(key);
    if (version === undefined) {
      version = runForOutput(file, kind.versionArgs).then((output) => kind.version(output));
      this.versions.set(key, version);
    }
    return version;
  }

  private async profileDirs(kind: DesktopSlicerKind, file: string): Promise<string[]> {
    const home = path.dirname(await realpath(file).catch(() => file));
    const candidates = [...kind.profileDirs.map((dir) => path.resolve(home, dir)), ...(this.options.extraProfileDirs?.[kind.id] ?? [])];
    const dirs: string[] = [];
    for (const dir of new Set(candidates)) if (await isDirectory(dir)) dirs.push(dir);
    return dirs;
  }

  private async cannotSlice(kind: DesktopSlicerKind, version: string | null, profileDirs: readonly string[]): Promise<string | null> {
    if (!kind.slices) return `the bridge does not drive ${kind.name}'s command line; its profiles are listed`;
    if (version === null) return `${kind.name} did not say its version when run with ${kind.versionArgs.join(' ')}`;
    if (kind.id === 'curaengine') {
      for (const dir of profileDirs) if (await exists(path.join(dir, CURA_PRINTER_DEFINITION))) return null;
      return `CuraEngine needs ${CURA_PRINTER_DEFINITION} (Debian ships it in the "cura" package), none found`;
    }
    return null;
  }
}
