/**
 * Managing outgoing channels (admin): list, create, change, delete, and send a test
 * notification to one channel to see what its receiver answers.
 */
import { Reply, type RouteSpec } from '../http/route.js';
import type { NotificationCenter } from './center.js';
import type { ChannelInput } from './channels.js';
import { channelCreateSchema, channelIdSchema, channelUpdateSchema, channelViewSchema, deliveryResultSchema, errorSchemaRef } from './schemas.js';
import { TAG } from './routes.js';

const CHANNEL_BODY_BYTES = 16 * 1024;

export function channelRoutes(center: NotificationCenter): RouteSpec[] {
  const view = channelViewSchema(center.channelTypes);
  const idParam = { id: channelIdSchema };
  const notFound = { description: 'No such channel (ERR_NOT_FOUND).', schema: errorSchemaRef };
  const invalid = { description: 'The settings are not valid (ERR_VALIDATION); `details` names the fields.', schema: errorSchemaRef };
  const taken = { description: 'Another channel has this name (ERR_CONFLICT).', schema: errorSchemaRef };
  return [
    {
      method: 'get',
      path: '/api/notifications/channels',
      level: 'admin',
      tag: TAG,
      summary: 'List outgoing notification channels',
      responses: {
        200: {
          description: 'Every channel; secrets redacted.',
          schema: { type: 'object', additionalProperties: false, required: ['items'], properties: { items: { type: 'array', items: view } } },
        },
      },
      async handler() {
        return { items: (await center.channels()).list() };
      },
    },
    {
      method: 'post',
      path: '/api/notifications/channels',
      level: 'admin',
      tag: TAG,
      summary: 'Add an outgoing notification channel',
      body: { kind: 'json', schema: channelCreateSchema(center.channelTypes), maxBytes: CHANNEL_BODY_BYTES },
      responses: {
        201: { description: 'The channel; secrets redacted.', schema: view },
        400: invalid,
        409: taken,
      },
      async handler({ body }) {
        return new Reply(201, await (await center.channels()).create(body as ChannelInput));
      },
    },
    {
      method: 'put',
      path: '/api/notifications/channels/:id',
      level: 'admin',
      tag: TAG,
      summary: 'Change an outgoing notification channel',
      description: 'Only the fields present change. A secret of "***" keeps the stored one; null or "" removes it.',
      params: idParam,
      body: { kind: 'json', schema: channelUpdateSchema(center.channelTypes), maxBytes: CHANNEL_BODY_BYTES },
      responses: {
        200: { description: 'The channel; secrets redacted.', schema: view },
        400: invalid,
        404: notFound,
        409: taken,
      },
      async handler({ params, body }) {
        return (await center.channels()).update(params.id, body as ChannelInput);
      },
    },
    {
      method: 'delete',
      path: '/api/notifications/channels/:id',
      level: 'admin',
      tag: TAG,
      summary: 'Delete an outgoing notification channel',
      params: idParam,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
      async handler({ params }) {
        await (await center.channels()).remove(params.id);
      },
    },
    {
      method: 'post',
      path: '/api/notifications/channels/:id/test',
      level: 'admin',
      tag: TAG,
      summary: 'Send a test notification to one channel',
      description: 'Works on disabled channels too; waits for the delivery (retries included) and records it on the channel like any other.',
      params: idParam,
      responses: { 200: { description: 'The delivery result.', schema: deliveryResultSchema }, 404: notFound },
      async handler({ params }) {
        const channels = await center.channels();
        const name = String(channels.get(params.id).name);
        return channels.test(params.id, center.testNotification(name));
      },
    },
  ];
}
