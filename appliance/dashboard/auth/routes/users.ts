/**
 * User management under /api/users, for admins. The last admin can be neither deleted nor
 * demoted (409). Deleting a user ends their sessions at once and removes their API keys.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { Reply, type RouteContext, type RouteSpec } from '../../http/route.js';
import { ERROR_SCHEMA_REF, ID_PARAM, NEW_USER_SCHEMA, USER_CHANGES_SCHEMA, USER_LIST_SCHEMA, USER_SCHEMA } from '../schemas.js';
import type { AuthService } from '../service.js';
import { toPublic, type NewUser, type UserChanges } from '../users.js';
import { AUTH_TAG } from './principal.js';

const NOT_FOUND = { description: 'No such user (ERR_NOT_FOUND).', schema: ERROR_SCHEMA_REF };

export function userRoutes(auth: AuthService): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/users',
      level: 'admin',
      tag: AUTH_TAG,
      summary: 'List the users',
      responses: { 200: { description: 'Every user, oldest first.', schema: USER_LIST_SCHEMA } },
      handler: () => auth.users.list(),
    },
    {
      method: 'post',
      path: '/api/users',
      level: 'admin',
      tag: AUTH_TAG,
      summary: 'Add a user',
      body: { kind: 'json', schema: NEW_USER_SCHEMA, maxBytes: 4096 },
      responses: {
        201: { description: 'The new user.', schema: USER_SCHEMA },
        409: { description: 'The username is taken, in any case (ERR_CONFLICT).', schema: ERROR_SCHEMA_REF },
      },
      handler: async ({ body }: RouteContext<NewUser>) => new Reply(201, await auth.users.create(body)),
    },
    {
      method: 'get',
      path: '/api/users/:id',
      level: 'admin',
      tag: AUTH_TAG,
      summary: 'Get a user',
      params: ID_PARAM,
      responses: { 200: { description: 'The user.', schema: USER_SCHEMA }, 404: NOT_FOUND },
      handler: ({ params }) => {
        const user = auth.users.get(params.id);
        if (user === undefined) throw new AppError(ErrorCode.notFound, 404, `no user with id "${params.id}"`);
        return toPublic(user);
      },
    },
    {
      method: 'put',
      path: '/api/users/:id',
      level: 'admin',
      tag: AUTH_TAG,
      summary: "Change a user's role or password",
      description: "Only the fields given change. A new role applies to the user's open sessions at once.",
      params: ID_PARAM,
      body: { kind: 'json', schema: USER_CHANGES_SCHEMA, maxBytes: 4096 },
      responses: {
        200: { description: 'The changed user.', schema: USER_SCHEMA },
        404: NOT_FOUND,
        409: { description: 'This would demote the last admin (ERR_CONFLICT).', schema: ERROR_SCHEMA_REF },
      },
      handler: ({ params, body }: RouteContext<UserChanges>) => auth.users.update(params.id, body),
    },
    {
      method: 'delete',
      path: '/api/users/:id',
      level: 'admin',
      tag: AUTH_TAG,
      summary: 'Delete a user',
      description: "The user's sessions end at once and the API keys they made are deleted with them.",
      params: ID_PARAM,
      responses: {
        204: { description: 'The user is gone.' },
        404: NOT_FOUND,
        409: { description: 'This is the last admin (ERR_CONFLICT).', schema: ERROR_SCHEMA_REF },
      },
      handler: async ({ params }) => {
        await auth.deleteUser(params.id);
      },
    },
  ];
}
