/**
 * The in-app list: read it, mark read, delete, and raise a notification from outside (Node-RED
 * flows, scripts with an API key). Reading and marking need `view`; raising and deleting change
 * what everyone sees, so they need `print`.
 */
import { Reply, type RouteSpec } from '../http/route.js';
import { validationError } from '../http/validate.js';
import type { NotificationCenter } from './center.js';
import { INBOX_CAPACITY } from './inbox.js';
import { dataProblem, DATA_MAX_BYTES, DATA_MAX_DEPTH, type NotificationInput } from './notification.js';
import { errorSchemaRef, notificationIdSchema, notificationInputSchema, notificationSchema, pageSchema } from './schemas.js';

export const TAG = 'notifications';
export const DEFAULT_PAGE_SIZE = 50;

const idParam = { id: notificationIdSchema };
const notFound = { description: 'No such notification (ERR_NOT_FOUND).', schema: errorSchemaRef };

export function inboxRoutes(center: NotificationCenter): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/notifications',
      level: 'view',
      tag: TAG,
      summary: 'List notifications, newest first',
      description: `The in-app list keeps the newest ${INBOX_CAPACITY}. Page with \`before\` = the previous page's \`next_before\`.`,
      query: {
        unread: { type: 'string', enum: ['0', '1', 'false', 'true'], description: '1 or true: unread ones only.' },
        limit: { type: 'integer', minimum: 1, maximum: INBOX_CAPACITY, default: DEFAULT_PAGE_SIZE },
        before: { ...notificationIdSchema, description: 'Only notifications older than this id.' },
      },
      responses: { 200: { description: 'A page of notifications and the unread count.', schema: pageSchema } },
      async handler({ query }) {
        return (await center.inbox()).list({
          unreadOnly: query.unread === '1' || query.unread === 'true',
          limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit),
          before: query.before === undefined ? undefined : Number(query.before),
        });
      },
    },
    {
      method: 'post',
      path: '/api/notifications',
      level: 'print',
      tag: TAG,
      summary: 'Raise a notification',
      description:
        'Stored in the list, then pushed over the WebSocket and sent to every enabled channel that takes its kind. ' +
        `\`data\` may be at most ${DATA_MAX_BYTES / 1024} KB as JSON and nest at most ${DATA_MAX_DEPTH} levels deep ` +
        '(400 ERR_VALIDATION naming the limit).',
      body: { kind: 'json', schema: notificationInputSchema, maxBytes: 64 * 1024 },
      responses: { 201: { description: 'The stored notification.', schema: notificationSchema } },
      async handler({ body }) {
        const input = body as NotificationInput;
        const problem = input.data === undefined ? null : dataProblem(input.data);
        if (problem !== null) throw validationError([{ path: 'body/data', message: problem }]);
        return new Reply(201, await center.notify(input));
      },
    },
    {
      method: 'post',
      path: '/api/notifications/read-all',
      level: 'view',
      tag: TAG,
      summary: 'Mark every notification read',
      responses: {
        200: {
          description: 'How many were unread.',
          schema: { type: 'object', additionalProperties: false, required: ['marked'], properties: { marked: { type: 'integer', minimum: 0 } } },
        },
      },
      async handler() {
        return { marked: await (await center.inbox()).markAllRead() };
      },
    },
    {
      method: 'post',
      path: '/api/notifications/:id/read',
      level: 'view',
      tag: TAG,
      summary: 'Mark one notification read',
      params: idParam,
      responses: { 200: { description: 'The notification.', schema: notificationSchema }, 404: notFound },
      async handler({ params }) {
        return (await center.inbox()).markRead(params.id);
      },
    },
    {
      method: 'delete',
      path: '/api/notifications/:id',
      level: 'print',
      tag: TAG,
      summary: 'Delete a notification',
      params: idParam,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
      async handler({ params }) {
        await (await center.inbox()).remove(params.id);
      },
    },
  ];
}
