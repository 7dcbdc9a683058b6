/**
 * The scene routes (/api/ai-model/scenes): list, create, read, replace, delete, arrange, slice (buffered, as
 * an event stream, and sent to a printer), download.
 * Reading needs `view`; writing and slicing need `print`, as for generation jobs.
 */
import { contentDisposition } from '../../../common/download.js';
import type { JsonSchema } from '../../../common/json-schema.js';
import { type RouteSpec, Reply } from '../../http/route.js';
import { ownerOf } from '../../slicing/ownership.js';
import { validationError } from '../../http/validate.js';
import { SEND_RESULT_SCHEMA, SLICE_RESULT_SCHEMA } from '../../slicing/remote/schemas.js';
import { streamSlice } from '../../slicing/slice-events.js';
import { disconnectSignal } from '../../slicing/slice-http.js';
import type { Logger } from '../../../common/logger.js';
import { HEIGHT_CHANGE_SETTINGS, heightChangesProblem, MAX_HEIGHT_CHANGES } from '../../../slicer/index.js';
import { MESH_CONTENT_TYPES } from '../geometry/mesh-files.js';
import { MAX_OBJECTS, MAX_SCENES, SCENE_INPUT_SCHEMA, SCENE_SCHEMA, type SceneInput } from './scene.js';
import type { SceneSliceOptions, SceneSlicing } from './scene-slicing.js';
import type { SceneSendOptions, SceneSending } from './scene-send.js';
import type { SceneStore } from './scene-store.js';

const errorSchemaRef: JsonSchema = { $ref: '#/components/schemas/Error' };
const idParam = { id: { type: 'string', maxLength: 64, description: 'The scene id.' } };
const notFound = { description: 'No such scene (ERR_NOT_FOUND).', schema: errorSchemaRef };
const inputErrors = {
  400: { description: 'The body breaks the schema, or an object would be smaller or larger than allowed (ERR_VALIDATION).', schema: errorSchemaRef },
  404: { description: 'No such scene, or an object names no generation job (ERR_NOT_FOUND, naming the object).', schema: errorSchemaRef },
  409: { description: 'An object names a job that is not done (ERR_CONFLICT).', schema: errorSchemaRef },
};

const HEIGHT_CHANGES_SCHEMA: JsonSchema = {
  type: 'array',
  maxItems: MAX_HEIGHT_CHANGES,
  description:
    'Settings that change with height, in mm above the bed: each applies from the first layer at or above its `z_from`. Given (even ' +
    "empty), this list replaces the one the scene's calibration pieces carry. Values: nozzle_temperature 0–500 °C, retraction_length " +
    '0–50 mm, retraction_speed 1–500 mm/s.',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['z_from', 'setting', 'value'],
    properties: {
      z_from: { type: 'number', minimum: 0 },
      setting: { type: 'string', enum: [...HEIGHT_CHANGE_SETTINGS] },
      value: { type: 'number' },
    },
  },
};

const PROFILE_PROPERTIES: Record<string, JsonSchema> = {
  filament_ids: { type: 'array', minItems: 1, maxItems: 16, items: { type: 'string', minLength: 1, maxLength: 200 } },
  process_id: { type: 'string', minLength: 1, maxLength: 200 },
  overrides: { type: 'object', description: "Settings (OrcaSlicer names) that replace the profiles' values, as in the slice form." },
  height_changes: HEIGHT_CHANGES_SCHEMA,
};

const SLICE_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: "Profiles to slice with; each one left out is the scene's own. With neither, 400 names the field.",
  properties: {
    printer_id: { type: 'string', minLength: 1, maxLength: 200, description: 'Printer profile id (GET /api/slicer/native/profiles).' },
    ...PROFILE_PROPERTIES,
  },
};

const SEND_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['printer_id'],
  description: "The dashboard printer to print on, and the profiles to slice with (filament and process: each left out is the scene's own).",
  properties: {
    printer_id: { type: 'string', minLength: 1, maxLength: 64, description: 'The dashboard printer (GET /api/printers).' },
    printer_profile_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: "The printer profile to slice with; default the printer's own `printer_profile`, then the scene's `printer_id`.",
    },
    ...PROFILE_PROPERTIES,
  },
};

/** The slice body's height changes checked against each setting's bounds (the schema cannot tie them to `setting`). */
function sliceOptions<T extends { height_changes?: unknown }>(body: unknown): T {
  const options = (body ?? {}) as T;
  if (options.height_changes !== undefined) {
    const problem = heightChangesProblem(options.height_changes);
    if (problem !== null) throw validationError([{ path: 'body/height_changes', message: problem }]);
  }
  return options;
}

const sliceErrors = {
  400: { description: 'No profile to slice with, or a setting or height change is not valid (ERR_VALIDATION).', schema: errorSchemaRef },
  404: { description: 'No such scene (ERR_NOT_FOUND), or an unknown profile (ERR_PROFILE_NOT_FOUND).', schema: errorSchemaRef },
  409: {
    description:
      'The scene has missing objects or none, two objects overlap, two calibration pieces change settings at different heights, or one ' +
      'with height changes is tipped over (ERR_CONFLICT; `details` names them).',
    schema: errorSchemaRef,
  },
  422: {
    description: "An object lies outside the printable area or above its height (ERR_MODEL_OUTSIDE_BED, naming it and the bed's size).",
    schema: errorSchemaRef,
  },
};

const SLICE_DESCRIPTION =
  "Places the objects, checks that no two overlap and that each lies inside the printer profile's printable area and under its " +
  'height, writes one 3MF with an object per model (so the G-code labels each object and a printer can skip one), and slices it ' +
  "through the dashboard's chain (slicer service, desktop slicer, built-in engine) as POST /api/slicer/remote/slice does. A calibration " +
  "piece's `notes.height_changes` (temperature tower, retraction test) go with it, each `z_from` moved by the piece's z scale and sink; " +
  "two pieces whose moved changes differ are 409 naming both; the body's own `height_changes` replace them. A printer profile only the " +
  'slicer service knows cannot be checked here: the slicer then centres the arrangement on its bed.';

/** Room between arranged objects (mm): enough for a nozzle to pass and for parts to come off apart. */
const DEFAULT_SPACING_MM = 5;

const ARRANGE_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    printer_id: { type: 'string', minLength: 1, maxLength: 200, description: 'The printer profile whose bed to arrange on.' },
    spacing_mm: { type: 'number', minimum: 0, maximum: 50, default: DEFAULT_SPACING_MM, description: 'Room between objects (mm).' },
  },
};

export const SCENES_DESCRIPTION =
  `A scene places finished generation jobs' models on a bed, each with a transform (mirror, scale, rotate X/Y/Z in its own frame; ` +
  "then its bounding box's centre at `translate` x/y mm from the centre of the printable area, resting on the bed or sunk by a negative " +
  `\`translate.z\`). At most ${MAX_SCENES} scenes of ${MAX_OBJECTS} objects. A generation job a scene uses is not dropped to make room ` +
  'for new jobs; one deleted anyway leaves its object marked `missing`.';

export function sceneRoutes(scenes: SceneStore, slicing: SceneSlicing, sending: SceneSending, tag: string, log: Logger): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/ai-model/scenes',
      level: 'view',
      tag,
      summary: 'List scenes',
      description: `${SCENES_DESCRIPTION} Newest first.`,
      responses: { 200: { description: 'The scenes.', schema: { type: 'array', items: SCENE_SCHEMA } } },
      handler: () => scenes.list(),
    },
    {
      method: 'post',
      path: '/api/ai-model/scenes',
      level: 'print',
      tag,
      summary: 'Create a scene',
      description: SCENES_DESCRIPTION,
      body: { kind: 'json', schema: SCENE_INPUT_SCHEMA, maxBytes: 64 * 1024 },
      responses: {
        201: { description: 'The scene, with every default filled in.', schema: SCENE_SCHEMA },
        ...inputErrors,
        409: { description: `An object's job is not done, or ${MAX_SCENES} scenes are kept already (ERR_CONFLICT).`, schema: errorSchemaRef },
      },
      async handler({ body }) {
        return new Reply(201, await scenes.create(body as SceneInput));
      },
    },
    {
      method: 'get',
      path: '/api/ai-model/scenes/:id',
      level: 'view',
      tag,
      summary: 'Read a scene',
      params: idParam,
      responses: { 200: { description: 'The scene; `missing` objects say why.', schema: SCENE_SCHEMA }, 404: notFound },
      handler: ({ params }) => scenes.get(params.id),
    },
    {
      method: 'put',
      path: '/api/ai-model/scenes/:id',
      level: 'print',
      tag,
      summary: 'Replace a scene',
      description: 'The whole scene, as for POST; the id and `created_at` stay.',
      params: idParam,
      body: { kind: 'json', schema: SCENE_INPUT_SCHEMA, maxBytes: 64 * 1024 },
      responses: { 200: { description: 'The scene.', schema: SCENE_SCHEMA }, ...inputErrors },
      handler: ({ params, body }) => scenes.update(params.id, body as SceneInput),
    },
    {
      method: 'delete',
      path: '/api/ai-model/scenes/:id',
      level: 'print',
      tag,
      summary: 'Delete a scene',
      description: 'The generation jobs it used stay.',
      params: idParam,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
      async handler({ params }) {
        await scenes.delete(params.id);
      },
    },
    {
      method: 'post',
      path: '/api/ai-model/scenes/:id/slice',
      level: 'print',
      tag,
      summary: 'Slice a scene',
      description:
        `${SLICE_DESCRIPTION} The answer is the stored result, as POST /api/slicer/remote/slice answers it: the backend, the ` +
        'statistics and `gcode_url`. Closing the connection cancels the slice.',
      params: idParam,
      body: { kind: 'json', schema: SLICE_BODY_SCHEMA, maxBytes: 64 * 1024 },
      responses: {
        200: { description: 'The stored slice result.', schema: SLICE_RESULT_SCHEMA },
        ...sliceErrors,
        503: { description: "No backend could slice (ERR_UNAVAILABLE); `details.skipped` has each one's reason.", schema: errorSchemaRef },
      },
      handler: ({ req, res, params, body, principal }) =>
        slicing.slice(params.id, sliceOptions<SceneSliceOptions>(body), ownerOf(principal), disconnectSignal(req, res)),
    },
    {
      method: 'post',
      path: '/api/ai-model/scenes/:id/slice/events',
      level: 'print',
      tag,
      summary: 'Slice a scene and follow its progress as an event stream',
      description:
        `${SLICE_DESCRIPTION} The scene is checked first: its mistakes are JSON answers, as for /slice. Then \`text/event-stream\`, as ` +
        'POST /api/slicer/remote/slice/events streams: `progress` {stage, pct} from whichever backend slices (the desktop-slicer bridge ' +
        'reports none), then `done` (the stored result, as /slice answers it) or `error` {message, code, status, details}; `: keep-alive` ' +
        'comments every 15 s. Closing the stream cancels the slice.',
      params: idParam,
      body: { kind: 'json', schema: SLICE_BODY_SCHEMA, maxBytes: 64 * 1024 },
      responses: { 200: { description: 'The event stream.', contentType: 'text/event-stream' }, ...sliceErrors },
      async handler({ req, res, params, body, principal }) {
        const prepared = await slicing.prepare(params.id, sliceOptions<SceneSliceOptions>(body));
        await streamSlice(req, res, log, (signal, onProgress) => slicing.run(prepared, ownerOf(principal), signal, onProgress));
      },
    },
    {
      method: 'post',
      path: '/api/ai-model/scenes/:id/slice-and-send',
      level: 'print',
      tag,
      summary: 'Slice a scene and start it on a dashboard printer',
      description:
        `${SLICE_DESCRIPTION} Sliced with \`printer_profile_id\`, else the printer's own \`printer_profile\`, else the scene's profile; ` +
        'then started as POST /api/slicer/remote/slice-and-send starts a file: the printer is checked before slicing and again before the ' +
        "upload, the result is stored, uploaded by the printer's driver and started. When the printer refuses after the slice, the " +
        "error's `details.result` is the stored result (download it from its `gcode_url`). Closing the connection cancels the slice.",
      params: idParam,
      body: { kind: 'json', schema: SEND_BODY_SCHEMA, maxBytes: 64 * 1024 },
      responses: {
        200: { description: 'Sliced, uploaded and started.', schema: SEND_RESULT_SCHEMA },
        ...sliceErrors,
        404: { description: 'No such scene or printer (ERR_NOT_FOUND), or an unknown profile (ERR_PROFILE_NOT_FOUND).', schema: errorSchemaRef },
        409: {
          description: `Printer offline, busy or in error (ERR_CONFLICT, after the slice with \`details.result\`). ${sliceErrors[409].description}`,
          schema: errorSchemaRef,
        },
        422: {
          description:
            "The printer cannot store files, or cannot print the sliced file's format (ERR_UNSUPPORTED_ACTION, with `details.result`); " +
            sliceErrors[422].description,
          schema: errorSchemaRef,
        },
        503: { description: 'No backend could slice, or the printers are not running (ERR_UNAVAILABLE).', schema: errorSchemaRef },
      },
      handler: ({ req, res, params, body, principal }) =>
        sending.send(params.id, sliceOptions<SceneSendOptions>(body), principal, disconnectSignal(req, res)),
    },
    {
      method: 'post',
      path: '/api/ai-model/scenes/:id/arrange',
      level: 'print',
      tag,
      summary: 'Arrange a scene on a bed',
      description:
        "Lays the objects out on the printable area of `printer_id` (default: the scene's printer profile): rows of footprints, the deepest " +
        'first, `spacing_mm` apart, the whole centred on the bed. Rotations, scales and sinking stay; the new `translate` x/y are stored.',
      params: idParam,
      body: { kind: 'json', schema: ARRANGE_BODY_SCHEMA, maxBytes: 4 * 1024 },
      responses: {
        200: { description: 'The scene with its objects moved.', schema: SCENE_SCHEMA },
        400: { description: 'No printer profile to arrange on (ERR_VALIDATION).', schema: errorSchemaRef },
        404: {
          description: 'No such scene (ERR_NOT_FOUND), or a printer profile the dashboard does not know (ERR_PROFILE_NOT_FOUND).',
          schema: errorSchemaRef,
        },
        409: { description: 'The scene has missing objects or none (ERR_CONFLICT).', schema: errorSchemaRef },
        422: { description: 'The objects do not fit on the bed together (ERR_MODEL_OUTSIDE_BED).', schema: errorSchemaRef },
      },
      handler: ({ params, body }) => {
        const { printer_id, spacing_mm } = (body ?? {}) as { printer_id?: string; spacing_mm?: number };
        return slicing.arrange(params.id, printer_id, spacing_mm ?? DEFAULT_SPACING_MM);
      },
    },
    {
      method: 'get',
      path: '/api/ai-model/scenes/:id/download',
      level: 'view',
      tag,
      summary: 'Download the placed scene as 3MF',
      description:
        "One object per model, placed on the bed of `printer_id` (default: the scene's printer profile) when the dashboard knows that " +
        'profile; otherwise without build positions, arranged around the origin as the scene lays them out.',
      params: idParam,
      query: { printer_id: { type: 'string', minLength: 1, maxLength: 200, description: 'The printer profile whose bed to place on.' } },
      responses: {
        200: { description: 'The 3MF, as an attachment.', contentType: MESH_CONTENT_TYPES['3mf'] },
        404: notFound,
        409: { description: 'The scene has missing objects or none (ERR_CONFLICT).', schema: errorSchemaRef },
      },
      async handler({ params, query }) {
        const scene = scenes.get(params.id);
        const bytes = await slicing.download(params.id, query.printer_id);
        return new Reply(200, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
          'content-type': MESH_CONTENT_TYPES['3mf'],
          'content-disposition': contentDisposition(`${scene.name}.3mf`),
          'cache-control': 'no-store',
        });
      },
    },
  ];
}
