/**
 * The routes of OS updates (updates.ts): the slots and the last update for anyone signed in,
 * uploading a bundle and rebooting into it for admins.
 */
import type { DashboardFeature } from '../feature.js';
import { Reply, type RouteSpec } from '../http/route.js';
import { ACCEPTED_SCHEMA, ERROR_SCHEMA_REF, UPDATE_STATE_SCHEMA } from './schemas.js';
import type { SystemUpdates } from './updates.js';

const TAG = 'system-update';

function routes(updates: SystemUpdates): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/system/update',
      level: 'view',
      tag: TAG,
      summary: 'The RAUC slots, their versions and states, the update running or waiting for a reboot, and the last update',
      responses: { 200: { description: 'OK', schema: UPDATE_STATE_SCHEMA } },
      handler: () => updates.state(),
    },
    {
      method: 'post',
      path: '/api/system/update',
      level: 'admin',
      tag: TAG,
      summary: 'Upload a RAUC bundle and install it into the other slot',
      description:
        'The body is the bundle file (`.raucb`, made by image/rauc/make-bundle.sh), streamed. RAUC checks its signature against ' +
        "the box's keyring (`rauc info`), then its `compatible` is compared with the system's and its version with the running " +
        'one, all before anything is written. The answer (202) comes once the install has started; its progress and end follow ' +
        'as `system.update` WebSocket events, and GET /api/system/update shows it. The new slot boots after ' +
        'POST /api/system/update/reboot.',
      query: {
        allow_downgrade: { type: 'boolean', description: 'Install a bundle older than the running version.' },
      },
      body: { kind: 'raw', contentType: 'application/octet-stream', maxBytes: updates.maxBundleBytes },
      responses: {
        202: { description: 'Accepted: the install runs.', schema: ACCEPTED_SCHEMA },
        400: { description: 'An empty body (ERR_UPDATE_INVALID_BUNDLE), a bad query (ERR_VALIDATION).', schema: ERROR_SCHEMA_REF },
        409: {
          description:
            'An update is being received, checked or installed (ERR_UPDATE_BUSY); an installed one waits for a reboot ' +
            '(ERR_UPDATE_PENDING); the bundle is older than the running version and allow_downgrade is not set (ERR_UPDATE_DOWNGRADE).',
          schema: ERROR_SCHEMA_REF,
        },
        413: { description: 'The bundle is over the limit, `max_bundle_bytes` (ERR_PAYLOAD_TOO_LARGE).', schema: ERROR_SCHEMA_REF },
        422: {
          description:
            "The signature does not verify against the box's keyring: another CA, or a damaged signature (ERR_UPDATE_SIGNATURE); " +
            'the file is no bundle, is damaged, or has a format the box refuses (ERR_UPDATE_INVALID_BUNDLE); its `compatible` is ' +
            "another board's (ERR_UPDATE_INCOMPATIBLE, `details` names both).",
          schema: ERROR_SCHEMA_REF,
        },
        503: { description: 'RAUC is not available on this machine (ERR_UPDATE_UNAVAILABLE).', schema: ERROR_SCHEMA_REF },
      },
      handler: async ({ req, query }) => new Reply(202, await updates.start(req, query.allow_downgrade === 'true')),
    },
    {
      method: 'post',
      path: '/api/system/update/reboot',
      level: 'admin',
      tag: TAG,
      summary: 'Reboot into the slot an update was installed into',
      description:
        'The box goes down at once; the new slot boots, and its health gate marks it good or goes back to the old slot ' + '(image/rauc/README.md).',
      responses: {
        202: { description: 'The reboot was asked for.' },
        409: { description: 'No installed update waits (ERR_UPDATE_NO_REBOOT_NEEDED), or one runs (ERR_UPDATE_BUSY).', schema: ERROR_SCHEMA_REF },
        503: { description: 'RAUC is not available (ERR_UPDATE_UNAVAILABLE).', schema: ERROR_SCHEMA_REF },
      },
      handler: async () => {
        await updates.reboot();
        return new Reply(202);
      },
    },
  ];
}

export function createSystemUpdateFeature(updates: SystemUpdates): DashboardFeature {
  return {
    name: 'system_update',
    routes: routes(updates),
    start: () => updates.open(),
    stop: () => updates.close(),
  };
}
