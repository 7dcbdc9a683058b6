/**
 * What a data directory contributes to the catalogue:
 *   <dir>/profiles/ (JSON files, any depth)        our own format (user profiles)
 *   <dir>/import/prusaslicer/*.ini                 PrusaSlicer vendor bundles
 *   <dir>/import/orcaslicer/<Vendor>.json + <Vendor>/{machine,filament,process}/*.json
 * Missing folders contribute nothing; a file that cannot be read is reported, never fatal.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../common/errors.js';
import { importOrcaSlicerFolder } from './import/orcaslicer-json.js';
import { importPrusaSlicerBundle } from './import/prusaslicer-ini.js';
import { readProfileFiles } from './profile-file.js';
import { mergeReport, type ProfileBatch } from './types.js';

async function iniFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.ini'))
      .map((e) => path.join(dir, e.name))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

function append(into: ProfileBatch, part: ProfileBatch): void {
  into.profiles.push(...part.profiles);
  mergeReport(into.report, part.report);
}

export async function readProfileDirectory(dir: string): Promise<ProfileBatch> {
  const batch = await readProfileFiles(path.join(dir, 'profiles'), 'user');
  for (const file of await iniFiles(path.join(dir, 'import', 'prusaslicer'))) {
    try {
      append(batch, importPrusaSlicerBundle(await readFile(file, 'utf8'), file));
    } catch (err) {
      batch.report.skipped.push({ file, reason: err instanceof AppError ? err.message : `import failed: ${String(err)}` });
    }
  }
  append(batch, await importOrcaSlicerFolder(path.join(dir, 'import', 'orcaslicer')));
  return batch;
}
