/**
 * The notifications feature: the in-app list and channel routes over the context's notification
 * center. Other features raise notifications through `notificationCenterOf(ctx)`.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { notificationCenterOf } from './center.js';
import { channelRoutes } from './channel-routes.js';
import { inboxRoutes } from './routes.js';

export function createNotificationsFeature(ctx: DashboardContext): DashboardFeature {
  const center = notificationCenterOf(ctx);
  return {
    name: 'notifications',
    routes: [...inboxRoutes(center), ...channelRoutes(center)],
    async start() {
      await center.open();
    },
    async stop() {
      await center.stop();
    },
    info() {
      return { channel_types: center.channelTypes.map((t) => t.type), ...center.stats() };
    },
  };
}
