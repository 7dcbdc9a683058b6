/**
 * The webhook routes: `POST /api/webhook/<service>` for the senders (no session: the service
 * authenticates as webhook-service.ts says; a failed check is 401 `{error, code, reason}`), and
 * the receivers under `/api/webhooks/receivers` for admins.
 */
import { ErrorCode } from '../../common/errors.js';
import { readBody } from '../http/body.js';
import { Reply, type RouteSpec } from '../http/route.js';
import { MONITOR_SERVICES, type MonitorService } from './monitor-event.js';
import type { ReceiverInput } from './receivers.js';
import {
  createdReceiverSchema,
  createReceiverSchema,
  receiverSchema,
  updateReceiverSchema,
  verifyFailureSchema,
  webhookResultSchema,
} from './schemas.js';
import { VerifyFailure } from './verify.js';
import type { WebhookService } from './webhook-service.js';

export const WEBHOOKS_TAG = 'webhooks';
/** Monitors send small JSON documents; a snapshot comes as a URL, not inline. */
export const WEBHOOK_MAX_BYTES = 256 * 1024;

const HOW: Readonly<Record<MonitorService, string>> = {
  obico:
    'Obico signs nothing: give it the URL with `?token=<secret>`. ' +
    'Both payload shapes (event as a name or as `{type}`) and its bare test message are read.',
  octoeverywhere: "Set the receiver's secret as the webhook's Secret Key: it arrives as `SecretKey` in the body (`?token=` works too).",
  simplyprint:
    'Signed: `X-SimplyPrint-Signature` = hex HMAC-SHA256 of `<X-SimplyPrint-Timestamp>.<raw body>` under the secret, the timestamp (Unix s) ' +
    'within ±300 s, each signature once. Unsigned: the secret token in `X-SP-Token` (or `?token=`).',
};

const idParam = { id: { type: 'string', pattern: '^[0-9a-f]{12}$' } };

function incomingRoute(service: MonitorService, webhooks: WebhookService): RouteSpec {
  return {
    method: 'post',
    path: `/api/webhook/${service}`,
    level: 'public',
    tag: WEBHOOKS_TAG,
    summary: `Receive a ${service} webhook`,
    description: `${HOW[service]} The event runs the actions its receiver has for it.`,
    query: { token: { type: 'string', maxLength: 200, description: "The receiver's secret, for services that carry it in the URL." } },
    body: { kind: 'raw', contentType: 'application/json', maxBytes: WEBHOOK_MAX_BYTES },
    responses: {
      200: { description: 'Accepted; what each action did.', schema: webhookResultSchema },
      400: { description: "The body is not JSON or not the service's shape (nothing was done)." },
      401: { description: 'The sender did not authenticate: `reason` says why.', schema: verifyFailureSchema },
      413: { description: `The body is over ${WEBHOOK_MAX_BYTES / 1024} KiB.` },
    },
    handler: async ({ req, query }) => {
      const body = await readBody(req, WEBHOOK_MAX_BYTES);
      try {
        return await webhooks.receive(service, { body, headers: req.headers, token: query.token });
      } catch (err) {
        if (err instanceof VerifyFailure) return new Reply(401, { error: err.message, code: ErrorCode.unauthorized, reason: err.reason });
        throw err;
      }
    },
  };
}

export function webhookRoutes(webhooks: WebhookService): RouteSpec[] {
  const base = '/api/webhooks/receivers';
  return [
    ...MONITOR_SERVICES.map((service) => incomingRoute(service, webhooks)),
    {
      method: 'get',
      path: base,
      level: 'admin',
      tag: WEBHOOKS_TAG,
      summary: 'List the webhook receivers',
      responses: { 200: { description: 'The receivers (secrets shown as `secret_set`).', schema: { type: 'array', items: receiverSchema } } },
      handler: () => webhooks.list(),
    },
    {
      method: 'post',
      path: base,
      level: 'admin',
      tag: WEBHOOKS_TAG,
      summary: 'Create a webhook receiver',
      description: 'Without `actions`, failures notify, pause and are recorded; print ends notify and are recorded; errors and tests notify.',
      body: { kind: 'json', schema: createReceiverSchema },
      responses: { 201: { description: 'Created; the secret is shown this once.', schema: createdReceiverSchema }, 400: { description: 'Invalid.' } },
      handler: async ({ body }) => new Reply(201, await webhooks.create(body as ReceiverInput & { name: string; service: MonitorService })),
    },
    {
      method: 'get',
      path: `${base}/:id`,
      level: 'admin',
      tag: WEBHOOKS_TAG,
      summary: 'One webhook receiver',
      params: idParam,
      responses: { 200: { description: 'The receiver.', schema: receiverSchema }, 404: { description: 'No such receiver.' } },
      handler: ({ params }) => webhooks.get(params.id),
    },
    {
      method: 'patch',
      path: `${base}/:id`,
      level: 'admin',
      tag: WEBHOOKS_TAG,
      summary: 'Change a webhook receiver',
      description: 'Only the fields given change; a new `secret` replaces the old one at once.',
      params: idParam,
      body: { kind: 'json', schema: updateReceiverSchema },
      responses: {
        200: { description: 'The receiver.', schema: receiverSchema },
        400: { description: 'Invalid.' },
        404: { description: 'No such receiver.' },
      },
      handler: ({ params, body }) => webhooks.update(params.id, body as ReceiverInput),
    },
    {
      method: 'delete',
      path: `${base}/:id`,
      level: 'admin',
      tag: WEBHOOKS_TAG,
      summary: 'Delete a webhook receiver',
      params: idParam,
      responses: { 204: { description: 'Deleted.' }, 404: { description: 'No such receiver.' } },
      handler: async ({ params }) => {
        await webhooks.delete(params.id);
      },
    },
  ];
}
