/**
 * Which features run and which failed to start. A feature whose start throws is stopped again (it
 * may have opened part of what it needs), logged, listed in /api/system/info, and each of its
 * routes answers 503 ERR_UNAVAILABLE saying why, while the rest of the dashboard runs.
 */
import { AppError, ErrorCode } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { DashboardFeature } from './feature.js';
import type { RouteSpec } from './http/route.js';

export interface FeatureState {
  name: string;
  state: 'running' | 'failed';
  /** Why the start failed; null while running. */
  error: string | null;
  since: string;
}

export class FeatureStates {
  private readonly states = new Map<string, FeatureState>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Starts the feature; false (and the failure recorded) when its start throws. */
  async start(feature: DashboardFeature): Promise<boolean> {
    try {
      await feature.start?.();
      this.states.set(feature.name, { name: feature.name, state: 'running', error: null, since: this.now().toISOString() });
      return true;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      this.states.set(feature.name, { name: feature.name, state: 'failed', error, since: this.now().toISOString() });
      this.log.error(`feature ${feature.name} did not start, the dashboard runs without it: ${error}`);
      await this.stopQuietly(feature);
      return false;
    }
  }

  list(): FeatureState[] {
    return [...this.states.values()];
  }

  failed(name: string): boolean {
    return this.states.get(name)?.state === 'failed';
  }

  /** The route, answering 503 while its feature is failed. */
  guard(name: string, route: RouteSpec): RouteSpec {
    return {
      ...route,
      handler: (ctx) => {
        const state = this.states.get(name);
        if (state?.state === 'failed') {
          throw new AppError(ErrorCode.unavailable, 503, `the ${name} feature is not running: it failed to start (${state.error})`);
        }
        return route.handler(ctx);
      },
    };
  }

  private async stopQuietly(feature: DashboardFeature): Promise<void> {
    try {
      await feature.stop?.();
    } catch (err) {
      this.log.warn(`feature ${feature.name} did not stop cleanly after its failed start: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
