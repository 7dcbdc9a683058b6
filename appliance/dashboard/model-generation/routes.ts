/**
 * The model generation routes (/api/ai-model/*): the generator catalogue, one POST per generator
 * (its body validated against the generator's schema), and the jobs: list, read, delete, download
 * the result as STL or 3MF. Reading needs `view`; creating and deleting jobs needs `print`.
 */
import type { JsonSchema } from '../../common/json-schema.js';
import { contentDisposition } from '../../common/download.js';
import { type ResponseSpec, type RouteSpec, Reply } from '../http/route.js';
import { MESH_CONTENT_TYPES, MESH_FORMATS, type MeshFormat } from './geometry/mesh-files.js';
import { GENERATORS } from './generators/catalogue.js';
import { JOB_STATES, MAX_JOBS, MAX_PENDING, type ModelJobs } from './jobs.js';
import { uploadGeneratorRoute } from './upload-route.js';
import { REMOTE_TEXT_ID, REMOTE_TEXT_SCHEMA } from './providers/remote-text.js';

export const TAG = 'model-generation';

const errorSchemaRef: JsonSchema = { $ref: '#/components/schemas/Error' };
const notFound = { description: 'No such job (ERR_NOT_FOUND).', schema: errorSchemaRef };
const idParam = { id: { type: 'string', maxLength: 64, description: 'The job id.' } };

const jobSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'generator', 'params', 'state', 'progress', 'created_at', 'started_at', 'finished_at', 'error', 'result'],
  properties: {
    id: { type: 'string' },
    generator: { type: 'string', description: 'The generator id (GET /api/ai-model/generators).' },
    params: { type: 'object', description: 'The parameters, with every default filled in.' },
    state: { type: 'string', enum: [...JOB_STATES] },
    progress: { type: 'number', minimum: 0, maximum: 1 },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: ['string', 'null'], format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    error: { type: ['string', 'null'], description: 'Why a failed job failed.' },
    result: {
      type: ['object', 'null'],
      description: 'The finished model: triangle and vertex counts, bounding box size and volume, and what a user needs to print it.',
      properties: {
        triangles: { type: 'integer' },
        vertices: { type: 'integer' },
        size_mm: { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 },
        volume_mm3: { type: 'number' },
        notes: {
          type: 'object',
          description:
            "e.g. a temperature tower's `temperature_changes`: [{ from_z_mm, temperature_c }]. A calibration piece's `height_changes` " +
            "([{ z_from, setting, value }]) go unchanged into a slice request (the slicer's `height_changes` form field) " +
            'to print each band as meant.',
        },
      },
    },
  },
};

const generatorSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'title', 'description', 'path', 'parameters', 'upload'],
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    path: { type: 'string', description: 'Where to POST the parameters to create a job.' },
    parameters: { type: 'object', description: 'The request body as JSON Schema; every property has a default.' },
    upload: {
      type: ['object', 'null'],
      required: ['media_type', 'max_bytes', 'description'],
      description:
        'Set when the input is a file: it is the raw request body (up to `max_bytes`), and `parameters` are query parameters instead of a body.',
      properties: { media_type: { type: 'string' }, max_bytes: { type: 'integer' }, description: { type: 'string' } },
    },
  },
};

/** The provider's route exists always; it answers 404 and is not listed while no provider is configured. */
const REMOTE_TEXT_ROUTE = {
  id: REMOTE_TEXT_ID,
  title: "Text to 3D (the admin's provider)",
  description:
    'A model from a description in words, made by the text-to-3D provider an admin configured (settings `model_provider`), ' +
    'repaired into a closed solid and scaled; 404 ERR_NOT_FOUND while no provider is configured.',
  schema: REMOTE_TEXT_SCHEMA,
};

const REMOTE_TEXT_404: Record<number, ResponseSpec> = { 404: { description: 'No provider is configured (ERR_NOT_FOUND).', schema: errorSchemaRef } };

function generatorRoutes(jobs: ModelJobs): RouteSpec[] {
  const jsonRoutes: RouteSpec[] = [...GENERATORS.filter((g) => !g.upload), REMOTE_TEXT_ROUTE].map((generator) => ({
    method: 'post',
    path: `/api/ai-model/${generator.id}`,
    level: 'print',
    tag: TAG,
    summary: `Generate: ${generator.title}`,
    description:
      `${generator.description} Creates a job and answers at once (202); follow it with \`model.job\` events on the WebSocket or ` +
      `GET /api/ai-model/jobs/:id. Jobs run one at a time; at most ${MAX_PENDING} may wait (429 ERR_TOO_MANY_JOBS past that).`,
    body: { kind: 'json', schema: generator.schema, maxBytes: ('maxBodyBytes' in generator ? generator.maxBodyBytes : undefined) ?? 16 * 1024 },
    responses: {
      202: { description: 'The job, queued.', schema: jobSchema },
      400: { description: 'Parameters outside the schema, or that do not fit together (ERR_VALIDATION).', schema: errorSchemaRef },
      ...(generator.id === REMOTE_TEXT_ID ? REMOTE_TEXT_404 : {}),
      429: { description: 'Too many jobs waiting (ERR_TOO_MANY_JOBS).', schema: errorSchemaRef },
    },
    async handler({ body }) {
      return new Reply(202, await jobs.create(generator.id, (body ?? {}) as Record<string, unknown>));
    },
  }));
  return [...jsonRoutes, ...GENERATORS.flatMap((g) => (g.upload ? [uploadGeneratorRoute(g, g.upload, jobs, jobSchema, TAG)] : []))];
}

export function modelGenerationRoutes(jobs: ModelJobs): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/ai-model/generators',
      level: 'view',
      tag: TAG,
      summary: 'List the model generators',
      description:
        'Every generator that runs on the box, and `remote-text` when an admin configured a text-to-3D provider, with its parameters ' +
        'as JSON Schema (the body of its POST is validated against it).',
      responses: { 200: { description: 'The generators.', schema: { type: 'array', items: generatorSchema } } },
      handler: () =>
        jobs.generators().map((g) => ({
          id: g.id,
          title: g.title,
          description: g.description,
          path: `/api/ai-model/${g.id}`,
          parameters: g.schema,
          upload: g.upload ? { media_type: g.upload.mediaType, max_bytes: g.upload.maxBytes, description: g.upload.description } : null,
        })),
    },
    ...generatorRoutes(jobs),
    {
      method: 'get',
      path: '/api/ai-model/jobs',
      level: 'view',
      tag: TAG,
      summary: 'List generation jobs',
      description: `Newest first. The box keeps the last ${MAX_JOBS} jobs; a new job drops the oldest finished ones and their results.`,
      responses: { 200: { description: 'The jobs.', schema: { type: 'array', items: jobSchema } } },
      handler: () => jobs.list(),
    },
    {
      method: 'get',
      path: '/api/ai-model/jobs/:id',
      level: 'view',
      tag: TAG,
      summary: 'Read a generation job',
      params: idParam,
      responses: { 200: { description: 'The job.', schema: jobSchema }, 404: notFound },
      handler: ({ params }) => jobs.get(params.id),
    },
    {
      method: 'delete',
      path: '/api/ai-model/jobs/:id',
      level: 'print',
      tag: TAG,
      summary: 'Delete a generation job and its result',
      description: 'A running job is forgotten at once and its build ended (the worker thread building it is stopped; the next job starts another).',
      params: idParam,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
      async handler({ params }) {
        await jobs.delete(params.id);
      },
    },
    {
      method: 'get',
      path: '/api/ai-model/jobs/:id/download',
      level: 'view',
      tag: TAG,
      summary: 'Download the generated model',
      description: 'Binary STL (the default) or a 3MF with one object in millimetres.',
      params: idParam,
      query: { format: { type: 'string', enum: [...MESH_FORMATS], default: 'stl', description: 'The file format.' } },
      responses: {
        200: { description: 'The model file, as an attachment.', contentType: 'application/octet-stream' },
        404: notFound,
        409: { description: 'The job is not done (ERR_CONFLICT).', schema: errorSchemaRef },
      },
      async handler({ params, query }) {
        const format = (query.format ?? 'stl') as MeshFormat;
        const job = jobs.get(params.id);
        const bytes = await jobs.download(params.id, format);
        return new Reply(200, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
          'content-type': MESH_CONTENT_TYPES[format],
          'content-disposition': contentDisposition(`${job.generator}-${job.id.slice(0, 8)}.${format}`),
          'cache-control': 'no-store',
        });
      },
    },
  ];
}
