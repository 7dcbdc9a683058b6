/**
 * The built-in engine's profiles: the bundled catalogue (read-only) plus the user's own profiles,
 * kept in the `slicer-native-profiles` JSON store. A user profile may inherit from a bundled one
 * or from another user profile of the same kind; its settings are checked against the engine's
 * settings table when stored, so a slice never meets a bad stored value.
 *
 * Changes are checked and applied in memory without awaiting in between (ids stay unique under
 * concurrent requests), then written; the catalogue the engine resolves against is rebuilt after
 * every change. A stored profile whose parent has gone (a bundled profile removed by an update)
 * stays stored and listed with its problem, but cannot be sliced with.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { normalizeName } from '../../../common/names.js';
import type { JsonStore, JsonStores } from '../../../common/json-store.js';
import { validationError } from '../../http/validate.js';
import type { ValidationIssue } from '../../../common/json-schema.js';
import { checkSettings, mergeSettings } from './profile-input.js';
import {
  type ConfigPatch,
  inheritanceChain,
  loadBundledProfiles,
  type Profile,
  PROFILE_KINDS,
  ProfileCatalogue,
  type ProfileFileEntry,
  type ProfileKind,
  resolveSettings,
  slugify,
} from '../../../slicer/index.js';

export const NATIVE_PROFILES_STORE = 'slicer-native-profiles';

/** A dashboard user profile: a profile file entry with when it was made and last changed. */
export interface UserProfileRecord extends ProfileFileEntry {
  created_at: string;
  updated_at: string;
}

/** A POST body, after the route's schema. */
export interface ProfileInput {
  id?: string;
  kind: ProfileKind;
  name: string;
  vendor?: string;
  inherits?: string | null;
  description?: string;
  compatible_printers?: string[];
  printer_model?: string;
  settings?: Record<string, unknown>;
}

/** A PUT body: the fields given replace the stored ones; null clears an optional one. */
export interface ProfilePatch {
  name?: string;
  vendor?: string;
  inherits?: string | null;
  description?: string | null;
  compatible_printers?: string[] | null;
  printer_model?: string | null;
  /** Merged key by key; a null value removes the key (the parent's value applies again). */
  settings?: Record<string, unknown>;
}

export type ProfileSource = 'bundled' | 'user';

export interface ProfileSummaryView {
  id: string;
  kind: ProfileKind;
  name: string;
  vendor: string;
  source: ProfileSource;
  read_only: boolean;
  is_default: boolean;
  inherits?: string;
  printer_model?: string;
  /** Why a stored user profile cannot be used (its parent is gone); absent when it can. */
  problem?: string;
}

export interface ProfileView extends ProfileSummaryView {
  description?: string;
  compatible_printers?: string[];
  /** The profile's own settings. */
  settings: ConfigPatch;
  /** Its settings with everything it inherits applied underneath; null when it cannot be resolved. */
  resolved_settings: ConfigPatch | null;
  created_at?: string;
  updated_at?: string;
}

interface ProfilesFile {
  profiles: UserProfileRecord[];
}

function checkShape(data: unknown): string | null {
  const profiles = (data as ProfilesFile | null)?.profiles;
  if (!Array.isArray(profiles)) return 'expected an object with a "profiles" list';
  for (const [index, p] of profiles.entries()) {
    if (typeof p !== 'object' || p === null) return `profiles[${index}] is not an object`;
    for (const field of ['id', 'name', 'kind'] as const) if (typeof p[field] !== 'string') return `profiles[${index}].${field} is not a string`;
    if (typeof p.settings !== 'object' || p.settings === null) return `profiles[${index}].settings is not an object`;
  }
  return null;
}

function asProfile(record: UserProfileRecord): Profile {
  const profile: Profile = {
    id: record.id,
    kind: record.kind,
    name: record.name,
    vendor: record.vendor,
    instantiable: true,
    is_default: false,
    source: 'user',
    settings: record.settings,
  };
  if (record.inherits !== undefined) profile.inherits = record.inherits;
  if (record.description !== undefined) profile.description = record.description;
  if (record.compatible_printers !== undefined) profile.compatible_printers = record.compatible_printers;
  if (record.printer_model !== undefined) profile.printer_model = record.printer_model;
  return profile;
}

/** Name, vendor and printer model as stored: trimmed and NFC, like every name (common/names.ts). */
function withStoredLabels<T extends ProfileInput | ProfilePatch>(input: T): T {
  const out: Record<string, unknown> = { ...input };
  for (const field of ['name', 'vendor', 'printer_model']) {
    const value = out[field];
    if (typeof value === 'string') out[field] = normalizeName(value);
  }
  return out as T;
}

function notFound(id: string): AppError {
  return new AppError(ErrorCode.notFound, 404, `no profile with id "${id}"`);
}

function readOnly(id: string): AppError {
  return new AppError(ErrorCode.conflict, 409, `profile "${id}" is bundled and read-only; create a user profile that inherits from it instead`);
}

export class UserProfiles {
  private catalogueCache: ProfileCatalogue | null = null;
  private readonly problems = new Map<string, string>();

  private constructor(
    private readonly bundled: ReadonlyMap<string, Profile>,
    private readonly store: JsonStore<ProfilesFile>,
    private readonly now: () => Date,
  ) {
    this.rebuild();
  }

  static async open(stores: JsonStores, now: () => Date = () => new Date()): Promise<UserProfiles> {
    const bundled = new Map((await loadBundledProfiles()).map((p) => [p.id, p]));
    const store = await stores.open<ProfilesFile>(NATIVE_PROFILES_STORE, { profiles: [] }, checkShape);
    return new UserProfiles(bundled, store, now);
  }

  /** Bundled and usable user profiles: what the engine resolves a slice's profile ids against. */
  catalogue(): ProfileCatalogue {
    this.catalogueCache ??= new ProfileCatalogue(this.profiles());
    return this.catalogueCache;
  }

  /** The catalogue's profiles, as stored (the bridge adds the desktop slicers' to them). */
  profiles(): Profile[] {
    return [
      ...this.bundled.values(),
      ...this.records()
        .filter((r) => !this.problems.has(r.id))
        .map(asProfile),
    ];
  }

  /** The user's profiles as stored (the remote push and the UI's exports read them). */
  records(): readonly UserProfileRecord[] {
    return this.store.data.profiles;
  }

  /** Selectable bundled profiles, then the user's, each ordered by kind, vendor and name. */
  list(filter: { kind?: ProfileKind; source?: ProfileSource } = {}): ProfileSummaryView[] {
    const out: ProfileSummaryView[] = [];
    if (filter.source !== 'user') {
      for (const p of this.bundled.values()) if (p.instantiable) out.push(this.summary(p));
    }
    if (filter.source !== 'bundled') for (const r of this.records()) out.push(this.summary(asProfile(r)));
    const sourceOrder = (s: ProfileSource): number => (s === 'bundled' ? 0 : 1);
    const kindOrder = (k: ProfileKind): number => PROFILE_KINDS.indexOf(k);
    return out
      .filter((p) => filter.kind === undefined || p.kind === filter.kind)
      .sort(
        (a, b) =>
          sourceOrder(a.source) - sourceOrder(b.source) ||
          kindOrder(a.kind) - kindOrder(b.kind) ||
          a.vendor.localeCompare(b.vendor) ||
          a.name.localeCompare(b.name),
      );
  }

  get(id: string): ProfileView {
    const bundled = this.bundled.get(id);
    if (bundled !== undefined) return this.view(bundled);
    const record = this.records().find((r) => r.id === id);
    if (record === undefined) throw notFound(id);
    return { ...this.view(asProfile(record)), created_at: record.created_at, updated_at: record.updated_at };
  }

  async create(sent: ProfileInput): Promise<ProfileView> {
    const input = withStoredLabels(sent);
    const issues: ValidationIssue[] = [];
    const id = input.id ?? slugify(input.name);
    if (id === '') issues.push({ path: 'body/name', message: 'gives no usable id (letters or digits needed); send an "id"' });
    const settings = checkSettings(input.settings ?? {}, input.kind, issues, false) as ConfigPatch;
    if (issues.length > 0) throw validationError(issues);
    if (this.bundled.has(id))
      throw new AppError(ErrorCode.conflict, 409, `the id "${id}" is taken by a bundled profile`, [{ path: 'body/id', message: 'is taken' }]);
    if (this.records().some((r) => r.id === id))
      throw new AppError(ErrorCode.conflict, 409, `a profile with id "${id}" exists`, [{ path: 'body/id', message: 'is taken' }]);
    const at = this.now().toISOString();
    const record: UserProfileRecord = {
      id,
      kind: input.kind,
      name: input.name,
      vendor: input.vendor ?? '',
      settings,
      created_at: at,
      updated_at: at,
    };
    if (typeof input.inherits === 'string') record.inherits = input.inherits;
    if (input.description !== undefined) record.description = input.description;
    if (input.compatible_printers !== undefined) record.compatible_printers = input.compatible_printers;
    if (input.printer_model !== undefined) record.printer_model = input.printer_model;
    this.checkInheritance(record, null);
    this.store.data.profiles.push(record);
    await this.save();
    return this.get(id);
  }

  async update(id: string, sent: ProfilePatch): Promise<ProfileView> {
    if (this.bundled.has(id)) throw readOnly(id);
    const patch = withStoredLabels(sent);
    const current = this.records().find((r) => r.id === id);
    if (current === undefined) throw notFound(id);
    const issues: ValidationIssue[] = [];
    const changes = checkSettings(patch.settings ?? {}, current.kind, issues, true);
    if (issues.length > 0) throw validationError(issues);
    const next: UserProfileRecord = { ...current, settings: mergeSettings(current.settings, changes), updated_at: this.now().toISOString() };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.vendor !== undefined) next.vendor = patch.vendor;
    for (const field of ['inherits', 'description', 'compatible_printers', 'printer_model'] as const) {
      const value = patch[field];
      if (value === null) delete next[field];
      else if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
    }
    this.checkInheritance(next, current);
    const profiles = this.store.data.profiles;
    profiles[profiles.indexOf(current)] = next;
    await this.save();
    return this.get(id);
  }

  /** Refused while another user profile inherits from it: that one would lose its settings. */
  async remove(id: string): Promise<void> {
    if (this.bundled.has(id)) throw readOnly(id);
    const current = this.records().find((r) => r.id === id);
    if (current === undefined) throw notFound(id);
    const children = this.records()
      .filter((r) => r.inherits === id)
      .map((r) => r.id);
    if (children.length > 0) {
      throw new AppError(
        ErrorCode.conflict,
        409,
        `profile "${id}" is inherited by ${children.map((c) => `"${c}"`).join(', ')}; change or delete those first`,
      );
    }
    this.store.data.profiles = this.records().filter((r) => r !== current);
    await this.save();
  }

  /** The parent must exist and be of the same kind, and the chain must not loop back. */
  private checkInheritance(record: UserProfileRecord, replacing: UserProfileRecord | null): void {
    if (record.inherits === undefined) return;
    const candidate = asProfile(record);
    const lookup = (id: string): Profile | undefined => {
      if (id === record.id) return candidate;
      const user = this.records().find((r) => r.id === id && r !== replacing);
      return user === undefined ? this.bundled.get(id) : asProfile(user);
    };
    try {
      inheritanceChain(candidate, lookup);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      throw validationError([{ path: 'body/inherits', message: err.message }]);
    }
  }

  private async save(): Promise<void> {
    this.rebuild();
    await this.store.write();
  }

  /** Finds the stored profiles whose chain no longer resolves; the catalogue leaves them out. */
  private rebuild(): void {
    this.catalogueCache = null;
    this.problems.clear();
    const users = new Map(this.records().map((r) => [r.id, asProfile(r)]));
    const lookup = (id: string): Profile | undefined => (this.problems.has(id) ? undefined : (users.get(id) ?? this.bundled.get(id)));
    for (let changed = true; changed; ) {
      changed = false;
      for (const profile of users.values()) {
        if (this.problems.has(profile.id)) continue;
        const problem = this.bundled.has(profile.id) ? `its id is taken by a bundled profile` : this.chainProblem(profile, lookup);
        if (problem !== null) {
          this.problems.set(profile.id, problem);
          changed = true;
        }
      }
    }
  }

  private chainProblem(profile: Profile, lookup: (id: string) => Profile | undefined): string | null {
    try {
      inheritanceChain(profile, lookup);
      return null;
    } catch (err) {
      if (err instanceof AppError) return err.message;
      throw err;
    }
  }

  /** A profile as stored (own settings only), bundled or user. */
  private stored(id: string): Profile | undefined {
    const record = this.records().find((r) => r.id === id);
    return record === undefined ? this.bundled.get(id) : asProfile(record);
  }

  private summary(p: Profile): ProfileSummaryView {
    const source: ProfileSource = p.source === 'user' ? 'user' : 'bundled';
    const view: ProfileSummaryView = {
      id: p.id,
      kind: p.kind,
      name: p.name,
      vendor: p.vendor,
      source,
      read_only: source === 'bundled',
      is_default: p.is_default,
    };
    if (p.inherits !== undefined) view.inherits = p.inherits;
    if (p.printer_model !== undefined) view.printer_model = p.printer_model;
    const problem = source === 'user' ? this.problems.get(p.id) : undefined;
    if (problem !== undefined) view.problem = problem;
    return view;
  }

  private view(p: Profile): ProfileView {
    const view: ProfileView = { ...this.summary(p), settings: p.settings, resolved_settings: null };
    if (p.description !== undefined) view.description = p.description;
    if (p.compatible_printers !== undefined) view.compatible_printers = p.compatible_printers;
    if (view.problem === undefined) view.resolved_settings = resolveSettings(p, (id) => this.stored(id));
    return view;
  }
}
