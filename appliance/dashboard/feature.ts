/**
 * A dashboard feature: its routes, plus optional wiring that is not REST (the WebSocket), a
 * start/stop for background work, and a block for /api/system/info. app.ts composes the list in
 * features.ts; a feature never reaches into another one's files, only through the context.
 */
import type { Server } from 'hyper-express';
import type { EventBus } from '../common/event-bus.js';
import type { JsonStores } from '../common/json-store.js';
import type { Logger } from '../common/logger.js';
import type { DashboardEvents } from './events.js';
import type { Authenticator, RouteSpec } from './http/route.js';
import type { Settings } from './settings/settings.js';

export interface DashboardContext {
  readonly dataDir: string;
  readonly log: Logger;
  readonly bus: EventBus<DashboardEvents>;
  readonly stores: JsonStores;
  readonly settings: Settings;
  readonly auth: Authenticator;
  readonly startedAt: Date;
}

export interface DashboardFeature {
  readonly name: string;
  readonly routes: readonly RouteSpec[];
  install?(app: Server): void;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** This feature's block of /api/system/info, under its name. */
  info?(): Record<string, unknown>;
}
