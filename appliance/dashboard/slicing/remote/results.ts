/**
 * Results of the buffered slice route (`POST /api/slicer/remote/slice`): whichever backend sliced,
 * its G-code is kept here so the JSON reply can point at a download, a preview can be drawn from
 * it, and slice-and-send can hand it to a printer. Like the slicer service's own jobs dir: one
 * folder per result (`<data dir>/slice-results/<id>/` with `result.json` and the file), the
 * newest 20 kept for 24 hours; older ones are removed whenever a result is added and at start.
 * Each result names its owner, the user or API key that sliced it. A result carries no server
 * path: the file is downloaded from `gcode_url`.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { SliceJobResult } from '../backend.js';
import type { JobOwner } from '../ownership.js';

export const RESULTS_DIR = 'slice-results';
const RECORD_FILE = 'result.json';
const ID = /^[0-9a-f]{16}$/;

export interface RetentionLimits {
  keep: number;
  keepMs: number;
}

export const DEFAULT_RETENTION: RetentionLimits = { keep: 20, keepMs: 24 * 3600 * 1000 };

/** A stored result as the API returns it. */
export interface StoredResult {
  id: string;
  created_at: string;
  backend: SliceJobResult['backend'];
  skipped: SliceJobResult['skipped'];
  file_name: string;
  format: SliceJobResult['format'];
  size_bytes: number;
  layers: number | null;
  estimated_time_s: number | null;
  filament_mm: number[];
  filament_g: number[];
  duration_ms: number;
  warnings: string[];
  /** Where the file is downloaded from. */
  gcode_url: string;
  /** Who sliced it; null for a result stored before owners were recorded. */
  owner: JobOwner | null;
}

export function isResultId(id: string): boolean {
  return ID.test(id);
}

export class SliceResults {
  readonly root: string;

  constructor(
    dataDir: string,
    private readonly limits: RetentionLimits = DEFAULT_RETENTION,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.root = path.join(dataDir, RESULTS_DIR);
  }

  async start(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    // No slice runs yet: a folder without a record is what a crash left behind.
    await this.sweep(true);
  }

  /** A new, empty result folder: the backend writes its output there. */
  async create(): Promise<{ id: string; dir: string }> {
    const id = randomBytes(8).toString('hex');
    const dir = path.join(this.root, id);
    await mkdir(dir, { recursive: true });
    return { id, dir };
  }

  /** Records a finished slice of the folder `id`, then applies the retention. */
  async save(id: string, result: SliceJobResult, owner: JobOwner): Promise<StoredResult> {
    const stored: StoredResult = {
      id,
      created_at: this.now().toISOString(),
      backend: result.backend,
      skipped: result.skipped,
      file_name: path.basename(result.gcodePath),
      format: result.format,
      size_bytes: result.sizeBytes,
      layers: result.layers,
      estimated_time_s: result.estimatedTimeS === null ? null : Math.round(result.estimatedTimeS),
      filament_mm: result.filamentMm,
      filament_g: result.filamentG,
      duration_ms: Math.round(result.durationMs),
      warnings: result.warnings,
      gcode_url: `/api/slicer/results/${id}/gcode`,
      owner,
    };
    await writeFile(path.join(this.root, id, RECORD_FILE), `${JSON.stringify(stored, null, 2)}\n`);
    await this.sweep();
    return stored;
  }

  /** Removes a folder whose slice did not finish. */
  async discard(id: string): Promise<void> {
    await rm(path.join(this.root, id), { recursive: true, force: true });
  }

  async get(id: string): Promise<StoredResult> {
    if (!isResultId(id)) throw notFound(id);
    try {
      const stored = JSON.parse(await readFile(path.join(this.root, id, RECORD_FILE), 'utf8')) as StoredResult;
      return { ...stored, owner: stored.owner ?? null };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(id);
      throw err;
    }
  }

  filePath(result: StoredResult): string {
    return path.join(this.root, result.id, result.file_name);
  }

  /**
   * Keeps the newest `keep` results younger than `keepMs`. A folder without a record belongs to a
   * slice still running, unless it is older than `keepMs` or `leftoversToo` says none can be.
   */
  async sweep(leftoversToo = false): Promise<void> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch(() => []);
    const records: StoredResult[] = [];
    const removals: Promise<void>[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !isResultId(entry.name)) continue;
      const record = await this.get(entry.name).catch(() => null);
      if (record) records.push(record);
      else if (leftoversToo || !(await this.isRecent(entry.name))) removals.push(this.discard(entry.name));
    }
    records.sort((a, b) => b.created_at.localeCompare(a.created_at));
    const cutoff = this.now().getTime() - this.limits.keepMs;
    records.forEach((record, index) => {
      if (index >= this.limits.keep || Date.parse(record.created_at) < cutoff) removals.push(this.discard(record.id));
    });
    await Promise.all(removals);
  }

  private async isRecent(id: string): Promise<boolean> {
    const info = await stat(path.join(this.root, id)).catch(() => null);
    return info !== null && this.now().getTime() - info.mtimeMs < this.limits.keepMs;
  }
}

function notFound(id: string): AppError {
  return new AppError(
    ErrorCode.notFound,
    404,
    `no slice result "${id}" (results are kept ${DEFAULT_RETENTION.keep} at most, for ${DEFAULT_RETENTION.keepMs / 3600_000} h)`,
  );
}
