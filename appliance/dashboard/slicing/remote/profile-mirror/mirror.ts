/**
 * The dashboard's own table of slicer profiles, mirrored from the slicer service's catalogue
 * (spec section 2: identity is the pair (kind, name); entries that vanish upstream are archived).
 * Kept in the `slicer-profiles` JSON store, so the farm's profile names stay known while the
 * service is away, and a profile that disappears is never silently forgotten.
 *
 * `reconcile` applies one complete catalogue: it adds what is new, updates what changed (vendor,
 * upstream id or settings), archives what is gone (never deletes), restores what came back, and
 * leaves everything else as it was, so applying the same catalogue twice changes nothing but
 * `last_seen`. Two upstream entries with one (kind, name) cannot both have that identity: the one
 * with the smallest upstream id wins, so the choice does not depend on the listing's order.
 */
import { randomBytes } from 'node:crypto';
import type { JsonStore, JsonStores } from '../../../../common/json-store.js';

export const PROFILE_MIRROR_STORE = 'slicer-profiles';
export const PROFILE_KINDS = ['printer', 'filament', 'process'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

export interface ProfileRow {
  /** The dashboard's id: 16 hex digits, stable for the (kind, name) pair. */
  id: string;
  kind: ProfileKind;
  name: string;
  vendor: string;
  /** The slicer service's id of the profile. */
  remote_id: string;
  source: 'remote';
  /** SHA-256 of the profile's settings (canonical JSON): a change upstream changes it. */
  settings_hash: string;
  first_seen: string;
  last_seen: string;
  archived: boolean;
  archived_at: string | null;
}

/** One entry of the upstream catalogue, as the table needs it. */
export interface CatalogueEntry {
  kind: ProfileKind;
  name: string;
  vendor: string;
  remote_id: string;
  settings_hash: string;
}

export interface ReconcileCounts {
  added: number;
  updated: number;
  archived: number;
  restored: number;
  unchanged: number;
  /** Upstream entries left out because another one had the same (kind, name). */
  duplicates: number;
}

interface TableFile {
  profiles: ProfileRow[];
}

function checkShape(data: unknown): string | null {
  const rows = (data as TableFile | null)?.profiles;
  if (!Array.isArray(rows)) return 'expected an object with a "profiles" list';
  for (const [index, row] of rows.entries()) {
    if (typeof row !== 'object' || row === null) return `profiles[${index}] is not an object`;
    if (!PROFILE_KINDS.includes(row.kind) || typeof row.name !== 'string' || typeof row.id !== 'string') {
      return `profiles[${index}] lacks a valid id, kind or name`;
    }
  }
  return null;
}

const identity = (kind: string, name: string): string => `${kind}\u0000${name}`;

export class ProfileMirror {
  private constructor(private readonly store: JsonStore<TableFile>) {}

  static async open(stores: JsonStores): Promise<ProfileMirror> {
    return new ProfileMirror(await stores.open<TableFile>(PROFILE_MIRROR_STORE, { profiles: [] }, checkShape));
  }

  /** Ordered by kind, vendor, name. */
  list(filter: { kind?: ProfileKind; includeArchived?: boolean } = {}): ProfileRow[] {
    return this.store.data.profiles
      .filter((row) => (filter.kind === undefined || row.kind === filter.kind) && (filter.includeArchived || !row.archived))
      .sort(
        (a, b) => PROFILE_KINDS.indexOf(a.kind) - PROFILE_KINDS.indexOf(b.kind) || a.vendor.localeCompare(b.vendor) || a.name.localeCompare(b.name),
      )
      .map((row) => ({ ...row }));
  }

  counts(): { active: number; archived: number } {
    const archived = this.store.data.profiles.filter((row) => row.archived).length;
    return { active: this.store.data.profiles.length - archived, archived };
  }

  /** Applies a complete catalogue (see the module comment) and writes the table once. */
  async reconcile(catalogue: readonly CatalogueEntry[], now: Date): Promise<ReconcileCounts> {
    const at = now.toISOString();
    const counts: ReconcileCounts = { added: 0, updated: 0, archived: 0, restored: 0, unchanged: 0, duplicates: 0 };
    const incoming = new Map<string, CatalogueEntry>();
    for (const entry of catalogue) {
      const key = identity(entry.kind, entry.name);
      const other = incoming.get(key);
      if (other !== undefined) counts.duplicates++;
      if (other === undefined || entry.remote_id < other.remote_id) incoming.set(key, entry);
    }
    const rows = this.store.data.profiles;
    const byIdentity = new Map(rows.map((row) => [identity(row.kind, row.name), row]));
    for (const [key, entry] of incoming) {
      const row = byIdentity.get(key);
      if (row === undefined) {
        rows.push({
          id: randomBytes(8).toString('hex'),
          kind: entry.kind,
          name: entry.name,
          vendor: entry.vendor,
          remote_id: entry.remote_id,
          source: 'remote',
          settings_hash: entry.settings_hash,
          first_seen: at,
          last_seen: at,
          archived: false,
          archived_at: null,
        });
        counts.added++;
        continue;
      }
      const changed = row.vendor !== entry.vendor || row.remote_id !== entry.remote_id || row.settings_hash !== entry.settings_hash;
      Object.assign(row, { vendor: entry.vendor, remote_id: entry.remote_id, settings_hash: entry.settings_hash, last_seen: at });
      if (row.archived) {
        row.archived = false;
        row.archived_at = null;
        counts.restored++;
      } else if (changed) counts.updated++;
      else counts.unchanged++;
    }
    for (const row of rows) {
      if (row.archived || incoming.has(identity(row.kind, row.name))) continue;
      row.archived = true;
      row.archived_at = at;
      counts.archived++;
    }
    await this.store.write();
    return counts;
  }
}
