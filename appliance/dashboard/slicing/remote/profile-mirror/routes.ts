/**
 * Routes of the local profile table: the forced sync and its status, the on-demand push, and the
 * table itself. Levels: reading is `view`; a sync or a push changes what the farm works with, so
 * both are `admin`.
 */
import { asHttpError } from '../errors.js';
import type { JsonSchema, RouteSpec } from '../../../http/route.js';
import type { ProfilePush } from './push.js';
import type { MirrorSync } from './sync.js';
import { PROFILE_KINDS, type ProfileKind, type ProfileMirror } from './mirror.js';

const TAG = 'slicer_service';
const COUNT: JsonSchema = { type: 'integer', minimum: 0 };
const NULLABLE_TIME: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

export const SYNC_STATUS_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'running',
    'last_started',
    'last_finished',
    'last_success',
    'ok',
    'added',
    'updated',
    'archived',
    'restored',
    'unchanged',
    'duplicates',
    'total',
    'error',
  ],
  properties: {
    running: { type: 'boolean' },
    last_started: NULLABLE_TIME,
    last_finished: NULLABLE_TIME,
    last_success: NULLABLE_TIME,
    ok: { type: ['boolean', 'null'], description: 'Outcome of the last sync; null before the first.' },
    added: COUNT,
    updated: COUNT,
    archived: COUNT,
    restored: COUNT,
    unchanged: COUNT,
    duplicates: { ...COUNT, description: 'Catalogue entries left out: another had the same (kind, name).' },
    total: { ...COUNT, description: 'Entries in the catalogue of the last successful sync.' },
    error: { type: ['string', 'null'] },
  },
};

const PROFILE_ROW_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['id', 'kind', 'name', 'vendor', 'remote_id', 'source', 'settings_hash', 'first_seen', 'last_seen', 'archived', 'archived_at'],
  properties: {
    id: { type: 'string' },
    kind: { type: 'string', enum: [...PROFILE_KINDS] },
    name: { type: 'string' },
    vendor: { type: 'string' },
    remote_id: { type: 'string', description: "The slicer service's profile id." },
    source: { const: 'remote' },
    settings_hash: { type: 'string', description: 'SHA-256 of the settings; changes when the profile does.' },
    first_seen: { type: 'string', format: 'date-time' },
    last_seen: { type: 'string', format: 'date-time' },
    archived: { type: 'boolean', description: 'Gone from the service; kept, and restored if it comes back.' },
    archived_at: NULLABLE_TIME,
  },
};

const PUSH_REPORT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['file', 'pushed', 'listed', 'not_listed', 'sync'],
  properties: {
    file: { type: 'string', description: "The file written in the service's config dir." },
    pushed: { type: 'array', items: { type: 'string' } },
    listed: { type: 'array', items: { type: 'string' }, description: 'Pushed profiles the service lists.' },
    not_listed: { type: 'array', items: { type: 'string' }, description: 'Pushed profiles the service did not take within 20 s (see its log).' },
    sync: { anyOf: [SYNC_STATUS_SCHEMA, { type: 'null' }] },
  },
};

export function mirrorRoutes(sync: MirrorSync, push: ProfilePush, mirror: () => Promise<ProfileMirror>): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/api/slicer/remote/sync',
      level: 'admin',
      tag: TAG,
      summary: 'Synchronise the profile table with the slicer service now',
      description:
        'Pulls the whole catalogue into the local table (also done every 5 minutes): idempotent on (kind, name); vanished entries are archived, ' +
        'never deleted, and restored when they return. Joins a sync that is already running.',
      responses: {
        200: { description: 'The finished sync.', schema: SYNC_STATUS_SCHEMA },
        503: { description: 'The slicer service is disabled, unreachable or incompatible (ERR_UNAVAILABLE); the table is unchanged.' },
      },
      handler: async () => {
        try {
          return await sync.run();
        } catch (err) {
          throw asHttpError(err);
        }
      },
    },
    {
      method: 'get',
      path: '/api/slicer/remote/sync/status',
      level: 'view',
      tag: TAG,
      summary: 'The last profile synchronisation',
      responses: { 200: { description: 'Counts of the last sync and its error.', schema: SYNC_STATUS_SCHEMA } },
      handler: () => sync.status(),
    },
    {
      method: 'post',
      path: '/api/slicer/profiles/push',
      level: 'admin',
      tag: TAG,
      summary: "Push the dashboard's user profiles to the slicer service",
      description:
        "Writes the user profiles of /api/slicer/native/profiles into the slicer service's config dir (profiles/printyard-dashboard/), which the " +
        'service reloads; waits until it lists them, then syncs. Needs the service on this machine (a loopback URL) and a config dir the dashboard ' +
        'can write: the service has no endpoint that receives profiles.',
      responses: {
        200: { description: 'What was pushed and what the service lists.', schema: PUSH_REPORT_SCHEMA },
        409: { description: 'The service is not on this machine, or its config dir cannot be written (ERR_CONFLICT).' },
        503: { description: 'The slicer service is disabled, unreachable or incompatible (ERR_UNAVAILABLE).' },
      },
      handler: async () => {
        try {
          return await push.push();
        } catch (err) {
          throw asHttpError(err);
        }
      },
    },
    {
      method: 'get',
      path: '/api/slicer/profiles',
      level: 'view',
      tag: TAG,
      summary: 'The local profile table (mirror of the slicer service)',
      description: 'Ordered by kind, vendor, name; archived entries only with `archived=1`.',
      query: {
        kind: { type: 'string', enum: [...PROFILE_KINDS] },
        archived: { type: 'string', enum: ['0', '1', 'false', 'true'], description: '1 or true: include archived entries.' },
      },
      responses: {
        200: {
          description: 'The rows.',
          schema: { type: 'object', required: ['profiles'], properties: { profiles: { type: 'array', items: PROFILE_ROW_SCHEMA } } },
        },
      },
      handler: async ({ query }) => ({
        profiles: (await mirror()).list({
          ...(query.kind ? { kind: query.kind as ProfileKind } : {}),
          includeArchived: query.archived === '1' || query.archived === 'true',
        }),
      }),
    },
  ];
}
