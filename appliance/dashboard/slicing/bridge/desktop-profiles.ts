/**
 * The desktop slicers' own profiles, read with our importers: PrusaSlicer vendor bundles
 * (`profiles/*.ini`, as Debian's prusa-slicer ships them), OrcaSlicer and Bambu Studio vendor
 * folders. Imported profiles get our ids and settings, so the bridge can slice with them: its
 * catalogue is the built-in engine's (bundled and user profiles) plus these, the built-in ids
 * winning a clash. CuraEngine's machine definitions are listed for reference only (Printyard has
 * no Cura importer); the bridge slices CuraEngine with translated Printyard profiles.
 *
 * Reading is done once per set of folders and cached; bundles are parsed one at a time with the
 * event loop let through in between (the largest, PrusaResearch.ini, takes about 0.1 s here).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppError } from '../../../common/errors.js';
import type { DetectedSlicer } from './detect.js';
import type { DesktopSlicerId } from './slicers.js';
import {
  importOrcaSlicerFolder,
  importPrusaSlicerBundle,
  inheritanceChain,
  type Profile,
  ProfileCatalogue,
  type ProfileKind,
  profileLabelProblem,
} from '../../../slicer/index.js';

export interface DesktopProfileEntry {
  /** The id to slice with (bridge/slice `printer_id`…); null for entries listed for reference only. */
  id: string | null;
  kind: ProfileKind;
  name: string;
  vendor: string;
  printer_model?: string;
  /** The file it was read from. */
  file: string;
}

export interface SlicerProfiles {
  slicer: DesktopSlicerId;
  name: string;
  profiles: DesktopProfileEntry[];
  /** Sections or files the importer could not use, with the reason. */
  skipped: { file: string; name?: string; reason: string }[];
}

interface Imported {
  entries: DesktopProfileEntry[];
  profiles: Profile[];
  skipped: SlicerProfiles['skipped'];
}

async function listFiles(dir: string, suffix: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => path.join(dir, name));
}

function entryOf(profile: Profile, file: string): DesktopProfileEntry {
  const entry: DesktopProfileEntry = { id: profile.id, kind: profile.kind, name: profile.name, vendor: profile.vendor, file };
  if (profile.printer_model !== undefined) entry.printer_model = profile.printer_model;
  return entry;
}

async function importPrusaBundles(dirs: readonly string[]): Promise<Imported> {
  const out: Imported = { entries: [], profiles: [], skipped: [] };
  for (const dir of dirs) {
    for (const file of await listFiles(dir, '.ini')) {
      const batch = importPrusaSlicerBundle(await readFile(file, 'utf8'), file);
      for (const { profile } of batch.profiles) {
        out.profiles.push(profile);
        if (profile.instantiable) out.entries.push(entryOf(profile, file));
      }
      out.skipped.push(...batch.report.skipped);
      await yieldToEventLoop();
    }
  }
  return out;
}

async function importOrcaFolders(dirs: readonly string[]): Promise<Imported> {
  const out: Imported = { entries: [], profiles: [], skipped: [] };
  for (const dir of dirs) {
    const batch = await importOrcaSlicerFolder(dir);
    for (const { profile, file } of batch.profiles) {
      out.profiles.push(profile);
      if (profile.instantiable) out.entries.push(entryOf(profile, file));
    }
    out.skipped.push(...batch.report.skipped);
  }
  return out;
}

/** Cura machine definitions (`*.def.json` with a name), as reference entries. */
async function listCuraDefinitions(dirs: readonly string[]): Promise<Imported> {
  const out: Imported = { entries: [], profiles: [], skipped: [] };
  for (const dir of dirs) {
    for (const file of await listFiles(dir, '.def.json')) {
      try {
        const definition = JSON.parse(await readFile(file, 'utf8')) as { name?: unknown; metadata?: { manufacturer?: unknown; visible?: unknown } };
        if (typeof definition.name !== 'string' || definition.metadata?.visible === false) continue;
        const manufacturer = definition.metadata?.manufacturer;
        const entry: DesktopProfileEntry = {
          id: null,
          kind: 'printer',
          name: definition.name,
          vendor: typeof manufacturer === 'string' ? manufacturer : '',
          file,
        };
        const labelProblem = profileLabelProblem(entry);
        if (labelProblem === null) out.entries.push(entry);
        else out.skipped.push({ file, name: definition.name, reason: labelProblem });
      } catch (err) {
        out.skipped.push({ file, reason: `not valid JSON: ${(err as Error).message}` });
      }
    }
  }
  return out;
}

function importerFor(slicer: DesktopSlicerId): (dirs: readonly string[]) => Promise<Imported> {
  if (slicer === 'prusaslicer') return importPrusaBundles;
  if (slicer === 'curaengine') return listCuraDefinitions;
  return importOrcaFolders;
}

export class DesktopProfiles {
  private readonly cache = new Map<string, Promise<Imported>>();
  private catalogueCache: { base: ProfileCatalogue; imported: readonly Profile[]; catalogue: ProfileCatalogue } | null = null;

  /** Every detected slicer's profiles. */
  async list(slicers: readonly DetectedSlicer[]): Promise<SlicerProfiles[]> {
    const lists: SlicerProfiles[] = [];
    for (const slicer of slicers) {
      const imported = await this.imported(slicer);
      lists.push({ slicer: slicer.id, name: slicer.name, profiles: imported.entries, skipped: imported.skipped });
    }
    return lists;
  }

  /**
   * The catalogue bridge slices resolve against: `base` (the built-in engine's profiles) plus the
   * imported ones whose id is free and whose inheritance resolves.
   */
  async catalogue(base: ProfileCatalogue, baseProfiles: readonly Profile[], slicers: readonly DetectedSlicer[]): Promise<ProfileCatalogue> {
    const imported: Profile[] = [];
    for (const slicer of slicers) imported.push(...(await this.imported(slicer)).profiles);
    const cached = this.catalogueCache;
    if (cached !== null && cached.base === base && sameProfiles(cached.imported, imported)) return cached.catalogue;
    const catalogue = new ProfileCatalogue(mergeProfiles(baseProfiles, imported));
    this.catalogueCache = { base, imported, catalogue };
    return catalogue;
  }

  private imported(slicer: DetectedSlicer): Promise<Imported> {
    const key = `${slicer.id}\n${slicer.profile_dirs.join('\n')}`;
    let imported = this.cache.get(key);
    if (imported === undefined) {
      imported = importerFor(slicer.id)(slicer.profile_dirs);
      imported.catch(() => this.cache.delete(key));
      this.cache.set(key, imported);
    }
    return imported;
  }
}

function sameProfiles(a: readonly Profile[], b: readonly Profile[]): boolean {
  return a.length === b.length && a.every((profile, i) => profile === b[i]);
}

/** `base` as it is, then each imported profile whose id is free; then those whose chain breaks are dropped. */
function mergeProfiles(base: readonly Profile[], imported: readonly Profile[]): Profile[] {
  const byId = new Map(base.map((p) => [p.id, p]));
  const added = new Map<string, Profile>();
  for (const profile of imported) {
    if (byId.has(profile.id)) continue;
    byId.set(profile.id, profile);
    added.set(profile.id, profile);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [id, profile] of added) {
      try {
        inheritanceChain(profile, (parent) => byId.get(parent));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        byId.delete(id);
        added.delete(id);
        changed = true;
      }
    }
  }
  return [...byId.values()];
}
