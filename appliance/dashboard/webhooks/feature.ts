/**
 * The incoming-webhooks feature: Obico, OctoEverywhere and SimplyPrint tell the box about prints
 * (webhook-service.ts, built by services.ts with the printers, the notification center and the
 * history), and admins configure what each event does. It starts after the printers and history.
 */
import type { DashboardFeature } from '../feature.js';
import { webhookRoutes } from './routes.js';
import type { WebhookService } from './webhook-service.js';

export const WEBHOOKS_FEATURE = 'webhooks';

export function createWebhooksFeature(webhooks: WebhookService): DashboardFeature {
  return {
    name: WEBHOOKS_FEATURE,
    routes: webhookRoutes(webhooks),
    start: () => webhooks.start(),
    stop: () => webhooks.stop(),
    info: () => webhooks.info(),
  };
}
