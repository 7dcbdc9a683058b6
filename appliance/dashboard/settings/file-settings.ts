/**
 * The Settings of settings.ts, kept in `<data-dir>/config.json`.
 *
 * At start the file is read and checked: a missing file is created with the defaults; a file
 * that is not a JSON object is moved aside (`config.json.corrupt-<time>`), reported and replaced
 * by the defaults, so a torn file never keeps the appliance from starting; a readable file with a
 * wrong or unknown key refuses the start with a message naming the key, since guessing what the
 * user meant would be worse. The environment then overrides the file's values. A file created or
 * replaced starts from the defaults with the first-run values over them (the box's own slicer
 * service and its token): written once, the user can change them as any other.
 *
 * Updates are checked the same way, written atomically (temp, fsync, rename, fsync directory)
 * one at a time, and announced to the onChange listeners.
 */
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../common/errors.js';
import { CONFIG_ERROR } from '../../common/config.js';
import { writeFileAtomic, type StoreProblem } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { applyPatch, CONFIG_FILE, defaultSettings, environmentOverrides, mergeChecked } from './schema.js';
import type { DashboardSettings, Settings, SettingsPatch } from './settings.js';

type Env = Readonly<Record<string, string | undefined>>;

function configError(err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err);
  return new AppError(CONFIG_ERROR, 400, message, err instanceof AppError ? err.details : undefined);
}

export class FileSettings implements Settings {
  private fileValues: DashboardSettings;
  private effective: DashboardSettings;
  private readonly listeners = new Set<(current: DashboardSettings) => void>();
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    fileValues: DashboardSettings,
    readonly overrides: SettingsPatch,
    /** Set when the file was unreadable at start and moved aside. */
    readonly problem: StoreProblem | null,
    private readonly log: Logger,
  ) {
    this.fileValues = fileValues;
    this.effective = applyPatch(fileValues, overrides);
  }

  /**
   * Loads `<dataDir>/config.json` (creating or replacing it as described above) and applies the
   * environment. `firstRun` is asked for only when the file is created or replaced. Throws
   * AppError ERR_INVALID_CONFIG naming the bad key or variable.
   */
  static async load(dataDir: string, env: Env, log: Logger, firstRun: () => SettingsPatch = () => ({})): Promise<FileSettings> {
    const file = path.join(dataDir, CONFIG_FILE);
    let overrides: SettingsPatch;
    try {
      overrides = environmentOverrides(env);
    } catch (err) {
      throw configError(err);
    }
    let text: string | null;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      text = null;
    }
    const parsed = text === null ? null : parseObject(text);
    const problem = parsed !== null && 'reason' in parsed ? await moveAside(file, parsed.reason, log) : null;
    if (parsed === null || 'reason' in parsed) {
      let values: DashboardSettings;
      try {
        values = mergeChecked(defaultSettings(), firstRun(), 'first-run settings: ');
      } catch (err) {
        throw configError(err);
      }
      await writeFileAtomic(file, serialize(values));
      return new FileSettings(file, values, overrides, problem, log);
    }
    try {
      return new FileSettings(file, mergeChecked(defaultSettings(), parsed.value, `${CONFIG_FILE}: `), overrides, null, log);
    } catch (err) {
      throw configError(err);
    }
  }

  get current(): DashboardSettings {
    return this.effective;
  }

  get saved(): DashboardSettings {
    return this.fileValues;
  }

  update(patch: SettingsPatch): Promise<DashboardSettings> {
    const run = this.writing.then(async () => {
      const next = mergeChecked(this.fileValues, patch, '');
      await writeFileAtomic(this.file, serialize(next));
      this.fileValues = next;
      this.effective = applyPatch(next, this.overrides);
      this.notify();
      return this.effective;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  onChange(listener: (current: DashboardSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(this.effective);
      } catch (err) {
        this.log.error(`settings listener failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }
  }
}

function serialize(values: DashboardSettings): string {
  return `${JSON.stringify(values, null, 2)}\n`;
}

/** The parsed object, or why the text is not a JSON object. */
function parseObject(text: string): { value: object } | { reason: string } {
  if (text.trim() === '') return { reason: 'the file is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { reason: `not valid JSON: ${(err as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { reason: 'not a JSON object' };
  return { value };
}

async function moveAside(file: string, reason: string, log: Logger): Promise<StoreProblem> {
  const at = new Date();
  const fileName = path.basename(file);
  const movedTo = `${fileName}.corrupt-${at.toISOString().replace(/[:.]/g, '-')}`;
  await rename(file, path.join(path.dirname(file), movedTo));
  log.error(`${fileName} is unreadable (${reason}); moved aside to ${movedTo}, starting on the default settings`);
  return { file: fileName, moved_to: movedTo, reason, at: at.toISOString() };
}
