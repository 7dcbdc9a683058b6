/**
 * API key management under /api/api-keys, for admins. A key is shown once, in the answer that
 * creates it; afterwards only its prefix is known. Deleting a key revokes it at once.
 */
import { Reply, type Role, type RouteContext, type RouteSpec } from '../../http/route.js';
import { API_KEY_LIST_SCHEMA, CREATED_API_KEY_SCHEMA, ERROR_SCHEMA_REF, ID_PARAM, NEW_API_KEY_SCHEMA } from '../schemas.js';
import type { AuthService } from '../service.js';
import { AUTH_TAG, signedIn } from './principal.js';

interface NewKeyBody {
  name: string;
  role: Role;
}

export function apiKeyRoutes(auth: AuthService): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/api-keys',
      level: 'admin',
      tag: AUTH_TAG,
      summary: 'List the API keys',
      responses: { 200: { description: 'Every key, without its secret.', schema: API_KEY_LIST_SCHEMA } },
      handler: () => auth.apiKeys.list(),
    },
    {
      method: 'post',
      path: '/api/api-keys',
      level: 'admin',
      tag: AUTH_TAG,
      summary: 'Create an API key',
      description:
        'The key acts for the user who creates it (the owner of the calling key, when a key creates one), never above ' +
        "that user's current role, and is deleted with that user.",
      body: { kind: 'json', schema: NEW_API_KEY_SCHEMA, maxBytes: 4096 },
      responses: {
        201: { description: 'The key, shown this once.', schema: CREATED_API_KEY_SCHEMA },
        403: { description: "The role is above the creator's (ERR_FORBIDDEN).", schema: ERROR_SCHEMA_REF },
      },
      handler: async (ctx: RouteContext<NewKeyBody>) => {
        const { key, record } = await auth.createApiKey(signedIn(ctx), ctx.body.name, ctx.body.role);
        return new Reply(201, { ...record, key });
      },
    },
    {
      method: 'delete',
      path: '/api/api-keys/:id',
      level: 'admin',
      tag: AUTH_TAG,
      summary: 'Revoke an API key',
      params: ID_PARAM,
      responses: {
        204: { description: 'The key is revoked.' },
        404: { description: 'No such key (ERR_NOT_FOUND).', schema: ERROR_SCHEMA_REF },
      },
      handler: async ({ params }) => {
        await auth.apiKeys.remove(params.id);
      },
    },
  ];
}
