/** The built-in engine's endpoints: profile CRUD over UserProfiles, and a slice that answers with the file. */
import { Reply, type RouteSpec } from '../../http/route.js';
import { ownerOf } from '../ownership.js';
import type { NativeSlicing } from './native-slicing.js';
import type { ProfileInput, ProfilePatch, ProfileSource } from './user-profiles.js';
import type { ProfileKind } from '../../../slicer/index.js';
import {
  profileCreateSchema,
  profileIdParams,
  profileListQuery,
  profileListSchema,
  profilePatchSchema,
  profileViewSchema,
  sliceFormSchema,
} from './schemas.js';
import {
  disconnectSignal,
  jobRequest,
  receiveSliceUpload,
  sendSliceResult,
  SLICE_BODY_MAX_BYTES,
  SLICE_RESULT_DESCRIPTION,
  type SliceWorkspace,
} from '../slice-http.js';

const TAG = 'slicing';
const notFound = { description: 'No profile with this id (ERR_NOT_FOUND).' };
const invalid = { description: 'A field or setting is not valid (ERR_VALIDATION); `details` names each, settings as `body/settings/<key>`.' };
const readOnly = { description: 'The profile is bundled and read-only, or (delete) another profile inherits from it (ERR_CONFLICT).' };

export function nativeRoutes(native: NativeSlicing, workspace: SliceWorkspace): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/slicer/native/profiles',
      level: 'view',
      tag: TAG,
      summary: "List the built-in engine's profiles",
      description: 'Bundled profiles (read-only) and user profiles; `kind` and `source` filter.',
      query: profileListQuery,
      responses: { 200: { description: 'The profiles.', schema: profileListSchema } },
      handler: async ({ query }) => ({
        profiles: (await native.userProfiles()).list({
          ...(query.kind ? { kind: query.kind as ProfileKind } : {}),
          ...(query.source ? { source: query.source as ProfileSource } : {}),
        }),
      }),
    },
    {
      method: 'post',
      path: '/api/slicer/native/profiles',
      level: 'print',
      tag: TAG,
      summary: 'Create a user profile',
      description: "Settings are checked against the engine's settings table; `inherits` names a bundled or user profile of the same kind.",
      body: { kind: 'json', schema: profileCreateSchema },
      responses: {
        201: { description: 'The new profile.', schema: profileViewSchema },
        400: invalid,
        409: { description: 'The id is taken (ERR_CONFLICT).' },
      },
      handler: async ({ body }) => new Reply(201, await (await native.userProfiles()).create(body as ProfileInput)),
    },
    {
      method: 'get',
      path: '/api/slicer/native/profiles/:id',
      level: 'view',
      tag: TAG,
      summary: 'Get a profile',
      description: 'With its own settings and the settings resolved along `inherits`.',
      params: profileIdParams,
      responses: { 200: { description: 'The profile.', schema: profileViewSchema }, 404: notFound },
      handler: async ({ params }) => (await native.userProfiles()).get(params.id),
    },
    {
      method: 'put',
      path: '/api/slicer/native/profiles/:id',
      level: 'print',
      tag: TAG,
      summary: 'Change a user profile',
      description: 'Partial: the fields sent replace the stored ones (null clears an optional one); `settings` is merged key by key.',
      params: profileIdParams,
      body: { kind: 'json', schema: profilePatchSchema },
      responses: { 200: { description: 'The changed profile.', schema: profileViewSchema }, 400: invalid, 404: notFound, 409: readOnly },
      handler: async ({ params, body }) => (await native.userProfiles()).update(params.id, body as ProfilePatch),
    },
    {
      method: 'delete',
      path: '/api/slicer/native/profiles/:id',
      level: 'print',
      tag: TAG,
      summary: 'Delete a user profile',
      params: profileIdParams,
      responses: { 204: { description: 'Deleted.' }, 404: notFound, 409: readOnly },
      handler: async ({ params }) => {
        await (await native.userProfiles()).remove(params.id);
      },
    },
    {
      method: 'post',
      path: '/api/slicer/native/slice',
      level: 'print',
      tag: TAG,
      summary: 'Slice with the built-in engine',
      description:
        "The same form as the slicer service's POST /api/slice. The slice runs in a process of its own, one at a time with up to three waiting " +
        '(429 ERR_TOO_MANY_JOBS beyond); it is cancelled when the client goes away.',
      body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: SLICE_BODY_MAX_BYTES, schema: sliceFormSchema },
      responses: {
        200: { description: SLICE_RESULT_DESCRIPTION, contentType: 'text/x.gcode' },
        400: { description: 'A form field or setting is not valid (ERR_VALIDATION).' },
        404: { description: 'A profile id is unknown (ERR_PROFILE_NOT_FOUND).' },
        413: { description: 'The model is over 50 MB, or a 3MF would inflate to more than 512 MB or 100 times its size (ERR_PAYLOAD_TOO_LARGE).' },
        415: { description: 'The model is neither STL nor 3MF (ERR_UNSUPPORTED_MODEL).' },
        422: { description: 'The model is broken or does not fit the printer (ERR_BAD_MODEL, ERR_MODEL_OUTSIDE_BED).' },
        429: { description: 'The built-in engine is busy (ERR_TOO_MANY_JOBS).' },
      },
      handler: ({ req, res, principal }) =>
        workspace.use(async (dir) => {
          const form = await receiveSliceUpload(req, dir);
          const result = await native.backend.slice(jobRequest(form, dir, disconnectSignal(req, res), ownerOf(principal)));
          await sendSliceResult(res, result);
        }),
    },
  ];
}
