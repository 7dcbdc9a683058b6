/**
 * A location's climate: takes readings (from a sensor, a Node-RED flow), keeps them (climate-log.ts),
 * publishes each on the bus as `inventory.climate`, and watches humidity against the limit of what
 * is stored there (humidity.ts).
 *
 * An excursion starts with the first reading above the limit and raises one notification; it ends
 * when a reading falls HYSTERESIS_PCT points below the limit (or the location no longer has a
 * limit), silently; the next reading above the limit is a new excursion and notifies again. Only a
 * reading newer than every other one moves the excursion: a late reading from a sensor's buffer
 * fills the series but does not reopen the past. Readings of a location are handled one at a
 * time, so two arriving together cannot both start an excursion.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { EventBus } from '../../../common/event-bus.js';
import type { Logger } from '../../../common/logger.js';
import type { DashboardEvents } from '../../events.js';
import type { NotificationCenter } from '../../notifications/center.js';
import type { SpoolDirectory } from '../spool.js';
import { type ClimateLog, type ClimateReading, RETENTION_DAYS, RETENTION_MS } from './climate-log.js';
import { parseTime } from './climate-time.js';
import { HYSTERESIS_PCT, type HumidityLimit, humidityLimit } from './humidity.js';
import type { Location } from './locations.js';

export const TEMPERATURE_RANGE_C = { min: -40, max: 85 } as const;
export const HUMIDITY_RANGE_PCT = { min: 0, max: 100 } as const;
/** How far in the future a reading's `at` may be: sensor clocks drift. */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;
export const EXCURSION_KIND = 'inventory.humidity_excursion';

/** What `inventory.climate` carries on the bus and the WebSocket. */
export interface ClimateEvent extends ClimateReading {
  location_id: number;
  location_name: string;
  /** The limit in force for this location, or null when it has none. */
  humidity_limit_pct: number | null;
  /** True while an excursion is open (after this reading). */
  excursion: boolean;
}

export interface ClimateInput {
  temperature_c: number;
  humidity_pct: number;
  at?: string;
}

export interface ClimateDeps {
  climate: ClimateLog;
  spools: SpoolDirectory;
  notifications: Pick<NotificationCenter, 'notify'>;
  bus: EventBus<DashboardEvents>;
  log: Logger;
  now: () => Date;
}

export class ClimateMonitor {
  private readonly queues = new Map<number, Promise<unknown>>();

  constructor(private readonly deps: ClimateDeps) {}

  /** The materials of the spools stored at the location (archived ones are not in use). */
  materialsAt(locationId: number): string[] {
    return this.deps.spools
      .list()
      .filter((s) => s.location_id === locationId && !s.archived)
      .map((s) => s.material);
  }

  limitOf(location: Location): HumidityLimit | null {
    return humidityLimit(location.humidity_limit_pct, this.materialsAt(location.id));
  }

  /** Checks the reading's time (the schema checked the ranges), stores it, and moves the excursion. */
  record(location: Location, input: ClimateInput): Promise<ClimateEvent> {
    const now = this.deps.now();
    const at = input.at === undefined ? now : new Date(parseTime(input.at, 'body/at'));
    if (at.getTime() > now.getTime() + CLOCK_SKEW_MS) {
      throw new AppError(
        ErrorCode.validation,
        400,
        `body/at is in the future (more than ${CLOCK_SKEW_MS / 60_000} minutes ahead of the box's clock)`,
        [{ path: 'body/at', message: 'must not be in the future' }],
      );
    }
    if (at.getTime() < now.getTime() - RETENTION_MS) {
      throw new AppError(ErrorCode.validation, 400, `body/at is older than the ${RETENTION_DAYS} days readings are kept`, [
        { path: 'body/at', message: `must be within the last ${RETENTION_DAYS} days` },
      ]);
    }
    const reading: ClimateReading = { at: at.toISOString(), temperature_c: input.temperature_c, humidity_pct: input.humidity_pct };
    const previous = this.queues.get(location.id) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.store(location, reading));
    this.queues.set(location.id, next);
    void next.finally(() => {
      if (this.queues.get(location.id) === next) this.queues.delete(location.id);
    });
    return next;
  }

  private async store(location: Location, reading: ClimateReading): Promise<ClimateEvent> {
    const { climate, bus } = this.deps;
    const latest = climate.latest(location.id);
    const newest = latest === null || Date.parse(reading.at) >= Date.parse(latest.at);
    await climate.add(location.id, reading);
    const limit = this.limitOf(location);
    if (newest) await this.follow(location, reading, limit);
    const event: ClimateEvent = {
      location_id: location.id,
      location_name: location.name,
      ...reading,
      humidity_limit_pct: limit?.limit_pct ?? null,
      excursion: climate.excursion(location.id) !== null,
    };
    bus.emit('inventory.climate', event);
    return event;
  }

  private async follow(location: Location, reading: ClimateReading, limit: HumidityLimit | null): Promise<void> {
    const { climate } = this.deps;
    const open = climate.excursion(location.id);
    if (open === null) {
      if (limit === null || reading.humidity_pct <= limit.limit_pct) return;
      // Notify first: if that fails, the excursion is not recorded and the next reading tries again.
      await this.notify(location, reading, limit);
      await climate.setExcursion(location.id, { since: reading.at, limit_pct: limit.limit_pct });
      return;
    }
    if (limit === null || reading.humidity_pct < limit.limit_pct - HYSTERESIS_PCT) await climate.setExcursion(location.id, null);
  }

  private async notify(location: Location, reading: ClimateReading, limit: HumidityLimit): Promise<void> {
    const why = limit.source === 'override' ? "the location's own limit" : `the limit for ${limit.material}`;
    await this.deps.notifications.notify({
      kind: EXCURSION_KIND,
      level: 'warning',
      title: `Humidity too high at ${location.name}`,
      message: `${reading.humidity_pct} % relative humidity, above ${limit.limit_pct} % (${why}), measured ${reading.at}.`,
      data: {
        location_id: location.id,
        location_name: location.name,
        humidity_pct: reading.humidity_pct,
        temperature_c: reading.temperature_c,
        limit_pct: limit.limit_pct,
        limit_source: limit.source,
        material: limit.material,
        at: reading.at,
      },
    });
  }
}
