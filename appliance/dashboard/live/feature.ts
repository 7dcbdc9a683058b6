/**
 * The live feature: `/ws` and the hub that forwards every dashboard bus event to it. It has no
 * REST routes; its counters are its block of /api/system/info.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { DEFAULT_HUB_OPTIONS, LiveHub, type LiveActions, type LiveHubOptions } from './hub.js';
import { installLiveSocket, WS_PATH } from './websocket.js';

/** `actions`: what client messages other than auth and subscribe do (features.ts: the queue's plate confirmation). */
export function createLiveFeature(
  ctx: DashboardContext,
  options: Partial<LiveHubOptions> = {},
  actions: LiveActions | null = null,
): DashboardFeature {
  const log = ctx.log.child('live');
  const hub = new LiveHub(ctx.auth, log, { ...DEFAULT_HUB_OPTIONS, ...options }, actions);
  let unsubscribe: (() => void) | null = null;
  return {
    name: 'live',
    routes: [],
    install(app) {
      installLiveSocket(app, hub, ctx.auth);
    },
    async start() {
      unsubscribe = ctx.bus.onAny((type, payload) => hub.broadcast(type, payload));
      hub.start();
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      hub.stop();
    },
    info() {
      return {
        path: WS_PATH,
        heartbeat_ms: hub.options.heartbeatMs,
        max_buffered_bytes: hub.options.maxBufferedBytes,
        ...hub.stats(),
      };
    },
  };
}
