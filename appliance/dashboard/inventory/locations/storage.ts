/**
 * Storage locations with their climate, as the routes use them: the locations' file, the climate
 * log and the monitor, opened together when the feature starts and closed when it stops.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { EventBus } from '../../../common/event-bus.js';
import type { JsonStores } from '../../../common/json-store.js';
import type { Logger } from '../../../common/logger.js';
import type { DashboardEvents } from '../../events.js';
import type { NotificationCenter } from '../../notifications/center.js';
import type { SpoolDirectory } from '../spool.js';
import { ClimateLog, type ClimateReading, type Excursion } from './climate-log.js';
import { parseTime } from './climate-time.js';
import { type ClimateEvent, type ClimateInput, ClimateMonitor } from './climate.js';
import type { HumidityLimit } from './humidity.js';
import { type Location, type LocationInput, Locations } from './locations.js';

export interface LocationView extends Location {
  spool_count: number;
  effective_limit: HumidityLimit | null;
  latest_reading: ClimateReading | null;
  excursion: Excursion | null;
}

export interface ClimateSeries {
  location_id: number;
  from: string;
  to: string;
  readings: ClimateReading[];
  effective_limit: HumidityLimit | null;
  excursion: Excursion | null;
}

export interface StorageDeps {
  dataDir: string;
  stores: JsonStores;
  spools: SpoolDirectory;
  notifications: Pick<NotificationCenter, 'notify'>;
  bus: EventBus<DashboardEvents>;
  log: Logger;
  now: () => Date;
}

interface Opened {
  locations: Locations;
  climate: ClimateLog;
  monitor: ClimateMonitor;
}

/**
 * The storage locations by id and by name, for the Spoolman API's `location` (a name there):
 * null for an unknown one, and while the locations are not open.
 */
export interface LocationNames {
  nameOf(id: number): string | null;
  idOf(name: string): number | null;
}

/** A climate series without `from` covers this long before `to`. */
export const DEFAULT_SERIES_MS = 24 * 3600 * 1000;

export class StorageLocations implements LocationNames {
  private opened: Opened | null = null;
  private opening: Promise<void> | null = null;
  /** The features that opened it (the inventory tools and the inventory's Spoolman API): closed when the last one stops. */
  private users = 0;

  constructor(private readonly deps: StorageDeps) {}

  async open(): Promise<void> {
    this.users++;
    this.opening ??= this.openParts();
    try {
      await this.opening;
    } catch (err) {
      this.users--;
      this.opening = null;
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.users === 0) return;
    this.users--;
    if (this.users > 0) return;
    await this.opening?.catch(() => undefined);
    this.opening = null;
    const opened = this.opened;
    this.opened = null;
    await opened?.climate.close();
  }

  private async openParts(): Promise<void> {
    const { dataDir, stores, log, now } = this.deps;
    const locations = await Locations.open(stores, now);
    const climate = await ClimateLog.open(dataDir, log.child('climate'));
    this.opened = { locations, climate, monitor: new ClimateMonitor({ ...this.deps, climate }) };
  }

  nameOf(id: number): string | null {
    return this.opened?.locations.find(id)?.name ?? null;
  }

  idOf(name: string): number | null {
    return this.opened?.locations.findByName(name)?.id ?? null;
  }

  list(): LocationView[] {
    const { locations } = this.parts();
    return locations.list().map((l) => this.view(l));
  }

  get(id: number): LocationView {
    return this.view(this.parts().locations.get(id));
  }

  async create(input: LocationInput & { name: string }): Promise<LocationView> {
    return this.view(await this.parts().locations.create(input));
  }

  async update(id: number, input: LocationInput): Promise<LocationView> {
    return this.view(await this.parts().locations.update(id, input));
  }

  /** Refused (409) while spools are stored there; the readings go with the location. */
  async remove(id: number): Promise<void> {
    const { locations, climate } = this.parts();
    locations.get(id);
    const stored = this.deps.spools.list().filter((s) => s.location_id === id);
    if (stored.length > 0) {
      const ids = stored.map((s) => s.id);
      const listed = `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}`;
      throw new AppError(ErrorCode.conflict, 409, `storage location ${id} still holds ${stored.length} spool(s) (${listed}): move them first`);
    }
    await locations.remove(id);
    await climate.forget(id);
  }

  record(id: number, input: ClimateInput): Promise<ClimateEvent> {
    const { locations, monitor } = this.parts();
    return monitor.record(locations.get(id), input);
  }

  series(id: number, from: string | undefined, to: string | undefined): ClimateSeries {
    const { locations, climate, monitor } = this.parts();
    const location = locations.get(id);
    const toMs = to === undefined ? this.deps.now().getTime() : parseTime(to, 'query/to');
    const fromMs = from === undefined ? toMs - DEFAULT_SERIES_MS : parseTime(from, 'query/from');
    if (fromMs > toMs) {
      throw new AppError(ErrorCode.validation, 400, 'query/from is after query/to', [{ path: 'query/from', message: 'must not be after to' }]);
    }
    return {
      location_id: id,
      from: new Date(fromMs).toISOString(),
      to: new Date(toMs).toISOString(),
      readings: climate.readings(id, fromMs, toMs),
      effective_limit: monitor.limitOf(location),
      excursion: climate.excursion(id),
    };
  }

  info(): Record<string, unknown> | null {
    if (this.opened === null) return null;
    return { locations: this.opened.locations.list().length, climate_log: this.opened.climate.stats() };
  }

  private view(location: Location): LocationView {
    const { climate, monitor } = this.parts();
    return {
      ...location,
      spool_count: monitor.materialsAt(location.id).length,
      effective_limit: monitor.limitOf(location),
      latest_reading: climate.latest(location.id),
      excursion: climate.excursion(location.id),
    };
  }

  private parts(): Opened {
    if (this.opened === null) throw new AppError(ErrorCode.unavailable, 503, 'the storage locations are not open');
    return this.opened;
  }
}
