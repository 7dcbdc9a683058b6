/**
 * The profile catalogue: bundled profiles plus whatever data directories add. Loading is async;
 * everything else is synchronous and answers from memory.
 */
import path from 'node:path';
import { AppError, ErrorCode } from '../../common/errors.js';
import { assembleConfig } from './assemble.js';
import { loadBundledProfiles, loadBundledProfilesFor } from './bundled.js';
import { inheritanceChain, resolveSettings, type ProfileLookup } from './resolve.js';
import type { ConfigPatch, PrintConfig } from './schema.js';
import {
  PROFILE_KINDS,
  type ListFilter,
  type LoadReport,
  type Profile,
  type ProfileKind,
  type ProfileSummary,
  type ResolveRequest,
} from './types.js';

interface Entry {
  profile: Profile;
  /** Where a loaded profile came from; reloading that directory replaces its profiles. */
  loadedFrom?: { dir: string; file: string };
}

export class ProfileCatalogue {
  private readonly entries = new Map<string, Entry>();
  private readonly resolved = new Map<string, ConfigPatch>();
  private readonly lookup: ProfileLookup = (id) => this.entries.get(id)?.profile;

  /** A catalogue of exactly `profiles`, which must be consistent (unique ids, resolvable chains). */
  constructor(profiles: Iterable<Profile> = []) {
    for (const profile of profiles) {
      if (this.entries.has(profile.id)) {
        throw new AppError(ErrorCode.internal, 500, `duplicate profile id "${profile.id}"`, { id: profile.id });
      }
      this.entries.set(profile.id, { profile });
    }
    for (const { profile } of this.entries.values()) inheritanceChain(profile, this.lookup);
  }

  static async bundled(): Promise<ProfileCatalogue> {
    return new ProfileCatalogue(await loadBundledProfiles());
  }

  /**
   * The bundled profiles with these ids and their parents only (see `loadBundledProfilesFor`): for
   * one job in a process of its own, which resolves these and lists nothing.
   */
  static async bundledFor(ids: readonly string[]): Promise<ProfileCatalogue> {
    return new ProfileCatalogue(await loadBundledProfilesFor(ids));
  }

  /**
   * Adds the user profiles and imports of a data directory (see load-directory.ts). Profiles whose
   * id is taken or whose inheritance cannot be resolved are skipped, each with its reason.
   */
  async loadDirectory(dir: string): Promise<LoadReport> {
    const origin = path.resolve(dir);
    for (const [id, entry] of this.entries) if (entry.loadedFrom?.dir === origin) this.entries.delete(id);
    this.resolved.clear();
    // The importers (OrcaSlicer, PrusaSlicer) are only needed for a data directory: loaded here.
    const { readProfileDirectory } = await import('./load-directory.js');
    const batch = await readProfileDirectory(origin);
    const report = batch.report;
    const added: string[] = [];
    for (const { profile, file } of batch.profiles) {
      const taken = this.entries.get(profile.id);
      if (taken !== undefined) {
        report.skipped.push({ file, name: profile.name, reason: `id "${profile.id}" is already used by a ${taken.profile.source} profile` });
        continue;
      }
      this.entries.set(profile.id, { profile, loadedFrom: { dir: origin, file } });
      added.push(profile.id);
    }
    this.dropUnresolvable(report);
    for (const id of added) {
      const entry = this.entries.get(id);
      if (entry?.loadedFrom !== undefined) {
        report.loaded.push({ id, kind: entry.profile.kind, source: entry.profile.source, file: entry.loadedFrom.file });
      }
    }
    return report;
  }

  /**
   * Removes loaded (non-bundled) profiles whose chain no longer resolves, this load's or an earlier
   * directory's whose parent just went away. Dropping one can break its children, so it repeats.
   */
  private dropUnresolvable(report: LoadReport): void {
    for (let changed = true; changed; ) {
      changed = false;
      for (const [id, entry] of this.entries) {
        if (entry.loadedFrom === undefined) continue;
        try {
          inheritanceChain(entry.profile, this.lookup);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          this.entries.delete(id);
          report.skipped.push({ file: entry.loadedFrom.file, name: entry.profile.name, reason: err.message });
          changed = true;
        }
      }
    }
  }

  /** Selectable profiles (abstract bases are left out), ordered by kind, vendor and name. */
  list(filter: ListFilter = {}): ProfileSummary[] {
    const kind = filter.kind ?? 'all';
    const vendor = filter.vendor?.toLowerCase();
    const out: ProfileSummary[] = [];
    for (const { profile: p } of this.entries.values()) {
      if (!p.instantiable) continue;
      if (kind !== 'all' && p.kind !== kind) continue;
      if (vendor !== undefined && p.vendor.toLowerCase() !== vendor) continue;
      const summary: ProfileSummary = { id: p.id, kind: p.kind, name: p.name, vendor: p.vendor, is_default: p.is_default, source: p.source };
      if (p.inherits !== undefined) summary.inherits = p.inherits;
      if (p.printer_model !== undefined) summary.printer_model = p.printer_model;
      out.push(summary);
    }
    const kindOrder = (k: ProfileKind): number => PROFILE_KINDS.indexOf(k);
    return out.sort(
      (a, b) => kindOrder(a.kind) - kindOrder(b.kind) || a.vendor.localeCompare(b.vendor) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
    );
  }

  /** The profile with its settings resolved along `inherits`. */
  get(id: string): Profile {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new AppError(ErrorCode.profileNotFound, 404, `unknown profile "${id}"`, { id });
    return { ...structuredClone(entry.profile), settings: structuredClone(this.resolvedSettings(entry.profile)) };
  }

  /** A profile's name, without the copy of its settings that `get` makes. */
  name(id: string): string {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new AppError(ErrorCode.profileNotFound, 404, `unknown profile "${id}"`, { id });
    return entry.profile.name;
  }

  /** The engine's configuration for one job; see assemble.ts for the order of precedence. */
  resolveConfig(request: ResolveRequest): PrintConfig {
    if (!Array.isArray(request.filamentIds) || !request.filamentIds.every((id) => typeof id === 'string')) {
      throw new AppError(ErrorCode.badRequest, 400, 'filamentIds must be a list of filament profile ids');
    }
    const printer = this.selectable(request.printerId, 'printer');
    const process = this.selectable(request.processId, 'process');
    const filaments = request.filamentIds.map((id) => this.selectable(id, 'filament'));
    return assembleConfig({
      printerId: printer.id,
      printer: this.resolvedSettings(printer),
      process: this.resolvedSettings(process),
      filaments: filaments.map((f) => this.resolvedSettings(f)),
      ...(request.overrides === undefined ? {} : { overrides: request.overrides }),
    });
  }

  private selectable(id: string, kind: ProfileKind): Profile {
    const profile = this.entries.get(id)?.profile;
    if (profile === undefined) {
      throw new AppError(ErrorCode.profileNotFound, 404, `unknown ${kind} profile "${id}"`, { id, kind });
    }
    if (profile.kind !== kind) {
      throw new AppError(ErrorCode.profileNotFound, 404, `profile "${id}" is a ${profile.kind} profile, not a ${kind} profile`, { id, kind });
    }
    if (!profile.instantiable) {
      throw new AppError(ErrorCode.profileNotFound, 404, `profile "${id}" is an abstract base, not a selectable ${kind} profile`, { id, kind });
    }
    return profile;
  }

  private resolvedSettings(profile: Profile): ConfigPatch {
    let settings = this.resolved.get(profile.id);
    if (settings === undefined) {
      settings = resolveSettings(profile, this.lookup);
      this.resolved.set(profile.id, settings);
    }
    return settings;
  }
}
