/**
 * Storage locations (shelves, dry boxes, cabinets) in `inventory-locations.json`: ids are integers
 * as the spools' `location_id`, names are unique whatever their case. A location that spools
 * still name cannot be deleted: move or archive them first (the spools are not ours to change).
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { JsonStore, JsonStores } from '../../../common/json-store.js';
import { normalizeName } from '../../../common/names.js';

export const LOCATIONS_STORE = 'inventory-locations';

export interface Location {
  id: number;
  name: string;
  description: string | null;
  /** Replaces the limit of the materials stored here; null to use the material table. */
  humidity_limit_pct: number | null;
  created_at: string;
  updated_at: string;
}

export interface LocationInput {
  name?: string;
  description?: string | null;
  humidity_limit_pct?: number | null;
}

interface LocationsFile {
  next_id: number;
  locations: Location[];
}

function checkShape(data: unknown): string | null {
  const file = data as Partial<LocationsFile> | null;
  if (!Number.isInteger(file?.next_id) || !Array.isArray(file?.locations)) return 'expected an object with next_id and a "locations" list';
  for (const [i, l] of file.locations.entries()) {
    if (!Number.isInteger(l?.id) || typeof l.name !== 'string') return `locations[${i}] lacks an integer id or a name`;
  }
  return null;
}

function sameName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

export class Locations {
  private constructor(
    private readonly store: JsonStore<LocationsFile>,
    private readonly now: () => Date,
  ) {}

  static async open(stores: JsonStores, now: () => Date): Promise<Locations> {
    return new Locations(await stores.open<LocationsFile>(LOCATIONS_STORE, { next_id: 1, locations: [] }, checkShape), now);
  }

  list(): Location[] {
    return this.store.data.locations.map((l) => ({ ...l }));
  }

  /** The location of this name, whatever its case (names are unique that way), or null. */
  findByName(name: string): Location | null {
    const wanted = normalizeName(name);
    return this.store.data.locations.find((l) => sameName(l.name, wanted)) ?? null;
  }

  find(id: number): Location | null {
    const found = this.store.data.locations.find((l) => l.id === id);
    return found === undefined ? null : { ...found };
  }

  get(id: number): Location {
    const found = this.find(id);
    if (found === null) throw new AppError(ErrorCode.notFound, 404, `no storage location ${id}`);
    return found;
  }

  async create(input: LocationInput & { name: string }): Promise<Location> {
    const name = normalizeName(input.name);
    this.assertNameFree(name, null);
    const at = this.now().toISOString();
    const data = this.store.data;
    const location: Location = {
      id: data.next_id,
      name,
      description: input.description ?? null,
      humidity_limit_pct: input.humidity_limit_pct ?? null,
      created_at: at,
      updated_at: at,
    };
    data.next_id += 1;
    data.locations.push(location);
    await this.write(() => {
      data.next_id -= 1;
      data.locations.pop();
    });
    return { ...location };
  }

  async update(id: number, input: LocationInput): Promise<Location> {
    const location = this.store.data.locations.find((l) => l.id === id);
    if (location === undefined) throw new AppError(ErrorCode.notFound, 404, `no storage location ${id}`);
    const before = { ...location };
    if (input.name !== undefined) {
      const name = normalizeName(input.name);
      this.assertNameFree(name, id);
      location.name = name;
    }
    if (input.description !== undefined) location.description = input.description;
    if (input.humidity_limit_pct !== undefined) location.humidity_limit_pct = input.humidity_limit_pct;
    location.updated_at = this.now().toISOString();
    await this.write(() => Object.assign(location, before));
    return { ...location };
  }

  async remove(id: number): Promise<void> {
    const data = this.store.data;
    const index = data.locations.findIndex((l) => l.id === id);
    if (index < 0) throw new AppError(ErrorCode.notFound, 404, `no storage location ${id}`);
    const [removed] = data.locations.splice(index, 1);
    await this.write(() => data.locations.splice(index, 0, removed));
  }

  private assertNameFree(name: string, exceptId: number | null): void {
    const other = this.store.data.locations.find((l) => l.id !== exceptId && sameName(l.name, name));
    if (other !== undefined) throw new AppError(ErrorCode.conflict, 409, `storage location ${other.id} is already named "${other.name}"`);
  }

  /** Writes the change; a failed write undoes it in memory too, so memory and disk agree. */
  private async write(undo: () => void): Promise<void> {
    try {
      await this.store.write();
    } catch (err) {
      undo();
      throw err;
    }
  }
}
