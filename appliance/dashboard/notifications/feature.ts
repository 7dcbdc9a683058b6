/**
 * The notifications feature: the in-app list and channel routes over the dashboard's notification
 * center, which services.ts makes and hands to every feature that raises notifications.
 */
import type { DashboardFeature } from '../feature.js';
import type { NotificationCenter } from './center.js';
import { channelRoutes } from './channel-routes.js';
import { inboxRoutes } from './routes.js';

export function createNotificationsFeature(center: NotificationCenter): DashboardFeature {
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
