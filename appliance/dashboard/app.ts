/**
 * printyard-dashboard put together: the data directory with config.json and the JSON stores, the
 * event bus, the authenticator, the shared services (services.ts), the features of features.ts
 * between the server's own system and OpenAPI parts, the router with the rate limiter, and the
 * HTTP server. Features start in order before the port opens and stop in reverse after it closes
 * to new requests. A feature whose start fails is logged, listed as failed in /api/system/info,
 * and its routes answer 503 saying why; the others run (a broken slicer bridge must not take the
 * fleet view down).
 */
import { mkdir } from 'node:fs/promises';
import { AppError, ErrorCode } from '../common/errors.js';
import { EventBus } from '../common/event-bus.js';
import { closeServer, createHttpServer, listen } from '../common/http-server.js';
import { JsonStores } from '../common/json-store.js';
import type { Logger } from '../common/logger.js';
import { StateVersions } from '../common/state-versions.js';
import { ensureTokenFile } from '../common/token-file.js';
import { packageVersion } from '../common/version.js';
import type { DashboardEvents } from './events.js';
import type { DashboardContext, DashboardFeature } from './feature.js';
import { FeatureStates } from './feature-states.js';
import { createAuthenticator, FEATURES, type AuthenticatorFactory, type FeatureFactory } from './features.js';
import { DashboardRouter, DEFAULT_JSON_MAX_BYTES } from './http/router.js';
import { RateLimiter, type RateLimits } from './http/rate-limit.js';
import type { RouteSpec } from './http/route.js';
import { createOpenApiFeature } from './openapi/feature.js';
import type { DashboardOptions } from './options.js';
import { createServices, type DashboardServices, type ServiceOptions } from './services.js';
import { FileSettings } from './settings/file-settings.js';
import type { DashboardSettings, SettingsPatch } from './settings/settings.js';
import { createSystemFeature } from './system/feature.js';

/** Open responses get this long to complete once the features have stopped. */
const CLOSE_TIMEOUT_MS = 5000;

type Env = Readonly<Record<string, string | undefined>>;

export interface DashboardServer {
  readonly port: number;
  readonly url: string;
  readonly context: DashboardContext;
  readonly services: DashboardServices;
  /** Every route the router registered, in order (the OpenAPI description lists the same). */
  readonly routes: readonly RouteSpec[];
  /** Graceful: features stop in reverse order, then the port closes. */
  stop(): Promise<void>;
}

/** What tests may swap; the executable uses features.ts and the process environment. */
export interface Composition {
  /** Environment of the config overrides (SLICER_URL…); default process.env. */
  env?: Env;
  features?: readonly FeatureFactory[];
  /** Options of the shared services (fake printer drivers, the bridge's search path…). */
  services?: ServiceOptions;
  createAuthenticator?: AuthenticatorFactory;
  /** systemd supervises the process (service-main.ts): reported in /api/system/info. */
  underSystemd?: boolean;
  /** The version whose state files these are (common/state-versions.ts); default package.json's. */
  version?: string;
}

function rateLimits(settings: DashboardSettings): RateLimits {
  const { enabled, per_minute, per_second } = settings.rate_limit;
  return { enabled, perMinute: per_minute, perSecond: per_second };
}

async function stopAll(features: readonly DashboardFeature[], log: Logger): Promise<void> {
  for (const feature of [...features].reverse()) {
    try {
      await feature.stop?.();
    } catch (err) {
      log.error(`feature ${feature.name} did not stop cleanly: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** The options of a start; the token file of the box's slicer is the executable's, optional for tests and tools. */
export type StartOptions = Omit<DashboardOptions, 'slicer_token_file'> & Partial<Pick<DashboardOptions, 'slicer_token_file'>>;

/** A new config.json of a box: the slicer integration enabled against the box's own slicer with the shared token. */
function firstRunSettings(options: StartOptions): SettingsPatch {
  if (!options.slicer_token_file) return {};
  return { slicer_service: { enabled: true, token: ensureTokenFile(options.slicer_token_file, '--slicer-token-file') } };
}

export async function startDashboard(options: StartOptions, log: Logger, composition: Composition = {}): Promise<DashboardServer> {
  const dataDir = options.data_dir;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // Before anything writes a state file: an update keeps the old version's on first write, a rollback gets its own back.
  const stateVersions = await StateVersions.open(dataDir, composition.version ?? packageVersion(), log.child('state'));
  const settings = await FileSettings.load(dataDir, composition.env ?? process.env, log.child('settings'), () => firstRunSettings(options)).catch(
    (err: unknown) => {
      stateVersions.close();
      throw err;
    },
  );
  const base = {
    dataDir,
    log,
    bus: new EventBus<DashboardEvents>(log.child('bus')),
    stores: new JsonStores(dataDir, log.child('state')),
    settings,
    startedAt: new Date(),
  };
  const auth = await (composition.createAuthenticator ?? createAuthenticator)(base);
  const ctx: DashboardContext = { ...base, auth };

  const services = createServices(ctx, composition.services);
  const features = (composition.features ?? FEATURES).map((create) => create(ctx, services));
  const states = new FeatureStates(log);
  const limiter = new RateLimiter(rateLimits(settings.current));
  const unwatch = settings.onChange((current) => limiter.configure(rateLimits(current)));
  const app = createHttpServer({ maxBodyBytes: DEFAULT_JSON_MAX_BYTES, log: log.child('http') });
  const router = new DashboardRouter(app, { auth, limiter, log: log.child('http') });
  const all = [
    createSystemFeature(ctx, {
      settingsProblem: settings.problem,
      features,
      states,
      underSystemd: composition.underSystemd ?? false,
      mdns: () => services.presence.state(),
    }),
    ...features,
    createOpenApiFeature(() => router.routes),
  ];
  const names = new Set<string>();
  for (const feature of all) {
    if (names.has(feature.name)) throw new AppError(ErrorCode.internal, 500, `two features are named ${feature.name}`);
    names.add(feature.name);
    for (const route of feature.routes) router.add(features.includes(feature) ? states.guard(feature.name, route) : route);
    feature.install?.(app);
  }
  router.finish();

  const started: DashboardFeature[] = [];
  let port: number;
  try {
    for (const feature of all) {
      if (!features.includes(feature)) await feature.start?.();
      else if (!(await states.start(feature))) continue;
      started.push(feature);
    }
    port = await listen(app, options.bind, options.port);
  } catch (err) {
    await stopAll(started, log);
    closeServer(app);
    unwatch();
    await ctx.stores.settled();
    stateVersions.close();
    throw err;
  }
  limiter.startSweeping();
  // Announced only now that the port answers; the probe and announcement run in the background.
  void services.presence.listening(port, options.bind);
  await services.discovery.listening(options.bind);
  const host = options.bind.includes(':') ? `[${options.bind}]` : options.bind;

  let stopping: Promise<void> | null = null;
  return {
    port,
    url: `http://${host}:${port}`,
    context: ctx,
    services,
    routes: router.routes,
    stop(): Promise<void> {
      stopping ??= (async () => {
        // New requests are refused from here on; the ones in flight finish while features stop.
        const drained = app.shutdown();
        await stopAll(started, log);
        unwatch();
        limiter.stop();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          drained,
          new Promise((resolve) => {
            timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
          }),
        ]);
        clearTimeout(timer);
        closeServer(app);
        await ctx.stores.settled();
        stateVersions.close();
      })();
      return stopping;
    },
  };
}
