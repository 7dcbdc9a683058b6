/**
 * What the service reads from its config dir: the profile catalogue (bundled profiles plus
 * `profiles/` and `import/`) and the printer bindings (`printers.json`). The folder is polled:
 * a listing of names, sizes and modification times is cheap, works on every file system (SD
 * cards, network mounts) and catches new sub-folders, where inotify watches would not. A change
 * is loaded once the listing has been stable for one interval, so a folder being copied in is not
 * read half-way; the new catalogue then replaces the old one in one assignment.
 */
import type { Dirent } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../common/logger.js';
import { loadBundledProfiles } from '../profiles/bundled.js';
import { ProfileCatalogue } from '../profiles/catalogue.js';
import type { LoadReport, Profile } from '../profiles/types.js';
import { loadPrinters, PRINTERS_FILE, type PrinterBinding } from './printers.js';

const WATCHED_DIRS = ['profiles', 'import'];
/** Skipped profiles named one by one in the log; the rest are counted. */
const REPORTED_SKIPS = 20;

async function listFiles(dir: string, out: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await listFiles(full, out);
    else out.push(full);
  }
}

/** Names, sizes and modification times of everything the catalogue and bindings are read from. */
export async function configSignature(dir: string): Promise<string> {
  const files: string[] = [path.join(dir, PRINTERS_FILE)];
  for (const sub of WATCHED_DIRS) await listFiles(path.join(dir, sub), files);
  const parts = await Promise.all(
    files.sort().map(async (file) => {
      try {
        const s = await stat(file);
        return `${file}\0${s.size}\0${s.mtimeMs}`;
      } catch {
        return '';
      }
    }),
  );
  return parts.join('\n');
}

export class ConfigDirectory {
  private timer: NodeJS.Timeout | null = null;
  private lastSeen: string;
  private stopped = false;
  private reloads = 0;

  private constructor(
    readonly dir: string,
    private readonly bundled: readonly Profile[],
    private readonly log: Logger,
    private currentCatalogue: ProfileCatalogue,
    private currentPrinters: PrinterBinding[],
    private loadedSignature: string,
  ) {
    this.lastSeen = loadedSignature;
  }

  /** Changes whenever the catalogue is replaced, for caches built on it. */
  get generation(): number {
    return this.reloads;
  }

  get catalogue(): ProfileCatalogue {
    return this.currentCatalogue;
  }

  get printers(): readonly PrinterBinding[] {
    return this.currentPrinters;
  }

  /** Creates the folder if needed and loads it; a broken printers.json is an error here. */
  static async open(dir: string, log: Logger): Promise<ConfigDirectory> {
    await mkdir(dir, { recursive: true });
    const bundled = await loadBundledProfiles();
    const signature = await configSignature(dir);
    const catalogue = await ConfigDirectory.loadCatalogue(dir, bundled, log);
    const printers = await loadPrinters(path.join(dir, PRINTERS_FILE));
    return new ConfigDirectory(dir, bundled, log, catalogue, printers, signature);
  }

  private static async loadCatalogue(dir: string, bundled: readonly Profile[], log: Logger): Promise<ProfileCatalogue> {
    const catalogue = new ProfileCatalogue(bundled);
    logReport(await catalogue.loadDirectory(dir), log);
    return catalogue;
  }

  /** Polls the folder every `intervalMs` and reloads what changed. */
  watch(intervalMs: number): void {
    const tick = async (): Promise<void> => {
      try {
        const signature = await configSignature(this.dir);
        if (signature !== this.loadedSignature && signature === this.lastSeen) await this.reload(signature);
        this.lastSeen = signature;
      } catch (err) {
        this.log.error(`cannot check ${this.dir}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!this.stopped) this.schedule(tick, intervalMs);
    };
    this.schedule(tick, intervalMs);
  }

  private schedule(tick: () => Promise<void>, intervalMs: number): void {
    this.timer = setTimeout(() => void tick(), intervalMs);
    this.timer.unref();
  }

  /** Loads the folder again; a part that fails to load keeps its previous state. */
  async reload(signature: string): Promise<void> {
    this.loadedSignature = signature;
    this.log.info(`reloading ${this.dir}`);
    try {
      this.currentCatalogue = await ConfigDirectory.loadCatalogue(this.dir, this.bundled, this.log);
      this.reloads++;
    } catch (err) {
      this.log.error(`profiles not reloaded: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      this.currentPrinters = await loadPrinters(path.join(this.dir, PRINTERS_FILE));
    } catch (err) {
      this.log.error(`printer bindings not reloaded: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}

function logReport(report: LoadReport, log: Logger): void {
  if (report.loaded.length > 0) log.info(`loaded ${report.loaded.length} profile(s) from the config dir`);
  for (const s of report.skipped.slice(0, REPORTED_SKIPS)) log.warn(`skipped ${s.name ? `"${s.name}" in ` : ''}${s.file}: ${s.reason}`);
  if (report.skipped.length > REPORTED_SKIPS) log.warn(`... and ${report.skipped.length - REPORTED_SKIPS} more skipped`);
  if (report.warnings.length > 0) log.debug(`${report.warnings.length} import warning(s) (values clamped or re-mapped)`);
}
