/**
 * The session routes under /api/auth: first-run setup, login, logout and "who am I".
 */
import { Reply, type RouteContext, type RouteSpec } from '../../http/route.js';
import {
  ERROR_SCHEMA_REF,
  LOGIN_BODY_SCHEMA,
  LOGIN_RESPONSE_SCHEMA,
  ME_SCHEMA,
  SETUP_BODY_SCHEMA,
  SETUP_STATE_SCHEMA,
  USER_SCHEMA,
} from '../schemas.js';
import type { AuthService } from '../service.js';
import { LoginThrottled } from '../sessions.js';
import { AUTH_TAG, signedIn } from './principal.js';

interface SetupBody {
  username: string;
  password: string;
  setup_code?: string;
}

interface LoginBody {
  username: string;
  password: string;
  device_token?: string;
  setup_code?: string;
}

export function sessionRoutes(auth: AuthService): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/auth/setup',
      level: 'public',
      tag: AUTH_TAG,
      summary: 'Whether the first admin still has to be created',
      description: 'The browser UI asks this to show the setup form (with a field for the setup code when needed) instead of the login form.',
      responses: { 200: { description: 'The setup state.', schema: SETUP_STATE_SCHEMA } },
      handler: () => ({ needed: auth.setup.needed, setup_code_required: auth.setup.codeRequired }),
    },
    {
      method: 'post',
      path: '/api/auth/setup',
      level: 'public',
      tag: AUTH_TAG,
      summary: 'Create the first admin',
      description:
        'Only while there is no admin: once one exists this is refused with 409, and admins add users under /api/users. ' +
        'On a fresh appliance anyone may call it; on one that has had users and lost them (a damaged users.json) it needs ' +
        'the one-time `setup_code`, which the dashboard writes to its log and to `<data-dir>/setup-code`; once used it is gone.',
      body: { kind: 'json', schema: SETUP_BODY_SCHEMA, maxBytes: 4096 },
      responses: {
        201: { description: 'The admin was created; log in with POST /api/auth/login.', schema: USER_SCHEMA },
        400: { description: 'The body or the password breaks a rule (ERR_VALIDATION).', schema: ERROR_SCHEMA_REF },
        403: { description: 'The setup code is needed and missing or wrong (ERR_FORBIDDEN).', schema: ERROR_SCHEMA_REF },
        409: { description: 'Setup is already done (ERR_CONFLICT).', schema: ERROR_SCHEMA_REF },
      },
      handler: async ({ body }: RouteContext<SetupBody>) =>
        new Reply(201, await auth.setup.createAdmin(body.username, body.password, body.setup_code)),
    },
    {
      method: 'post',
      path: '/api/auth/login',
      level: 'public',
      tag: AUTH_TAG,
      summary: 'Log in: get a session token',
      description:
        'Usernames are matched without regard to case. A wrong username and a wrong password get the same 401. ' +
        'After repeated failures from one address (for one username, or for all of them), or for one username from any ' +
        'addresses, further attempts get 429 with Retry-After, for a window that doubles with each further failure. ' +
        'The lock of a username over all addresses lets through a client that sends the `device_token` of an earlier ' +
        'login to that account, or the one-time `setup_code` from the dashboard log.',
      body: { kind: 'json', schema: LOGIN_BODY_SCHEMA, maxBytes: 4096 },
      responses: {
        200: { description: "A session token and this client's known-device token.", schema: LOGIN_RESPONSE_SCHEMA },
        401: { description: 'Wrong username or password (ERR_UNAUTHORIZED).', schema: ERROR_SCHEMA_REF },
        429: { description: 'Throttled after failed logins (ERR_RATE_LIMITED), with Retry-After.', schema: ERROR_SCHEMA_REF },
      },
      handler: async ({ body, ip }: RouteContext<LoginBody>) => {
        try {
          return await auth.sessions.login(body.username, body.password, ip, { deviceToken: body.device_token, setupCode: body.setup_code });
        } catch (err) {
          if (!(err instanceof LoginThrottled)) throw err;
          return new Reply(429, { error: err.message, code: err.code }, { 'retry-after': String(err.retryAfterS) });
        }
      },
    },
    {
      method: 'post',
      path: '/api/auth/logout',
      level: 'view',
      tag: AUTH_TAG,
      summary: 'Log out: revoke the session token of this request',
      description: 'The token is refused from now on, also after a restart. API keys are revoked with DELETE /api/api-keys/{id} instead.',
      responses: {
        204: { description: 'The token is revoked.' },
        400: { description: 'The request came with an API key, not a session token (ERR_VALIDATION).', schema: ERROR_SCHEMA_REF },
      },
      handler: async (ctx) => {
        await auth.sessions.logout(signedIn(ctx));
      },
    },
    {
      method: 'get',
      path: '/api/auth/me',
      level: 'view',
      tag: AUTH_TAG,
      summary: 'Who the credentials of this request belong to',
      responses: { 200: { description: "The user (with the session's expiry) or the API key.", schema: ME_SCHEMA } },
      handler: (ctx) => auth.me(signedIn(ctx)),
    },
  ];
}
