/**
 * The POST of a generator whose input is a file (the image generator's picture): the file is the
 * raw request body, so a photo is sent as it is (no base64 in JSON, a third larger), and the
 * generator's parameters are query parameters, validated against the same schema the catalogue
 * lists. The file is checked from its header while the request waits (400 when it is not usable,
 * 413 past the size limit before it is read) and kept with the job until the job has run.
 */
import type { JsonSchema } from '../../common/json-schema.js';
import { formatBytes } from '../../common/body-size.js';
import { readBody } from '../http/body.js';
import { Reply, type RouteSpec } from '../http/route.js';
import { parameterValue, validationError } from '../http/validate.js';
import type { Generator, GeneratorUpload } from './generators/generator.js';
import { MAX_PENDING, type ModelJobs } from './jobs.js';

export function uploadGeneratorRoute(generator: Generator, upload: GeneratorUpload, jobs: ModelJobs, jobSchema: JsonSchema, tag: string): RouteSpec {
  const errorSchema: JsonSchema = { $ref: '#/components/schemas/Error' };
  const properties = (generator.schema.properties ?? {}) as Record<string, JsonSchema>;
  return {
    method: 'post',
    path: `/api/ai-model/${generator.id}`,
    level: 'print',
    tag,
    summary: `Generate: ${generator.title}`,
    description:
      `${generator.description} The body: ${upload.description} Creates a job and answers at once (202); follow it with \`model.job\` events on ` +
      `the WebSocket or GET /api/ai-model/jobs/:id. Jobs run one at a time; at most ${MAX_PENDING} may wait (429 ERR_TOO_MANY_JOBS past that).`,
    query: properties,
    body: { kind: 'raw', contentType: upload.mediaType, maxBytes: upload.maxBytes },
    responses: {
      202: { description: 'The job, queued.', schema: jobSchema },
      400: {
        description:
          'No body, a body that is not a usable file (the message says why), or parameters outside the schema or that do not fit ' +
          'together (ERR_VALIDATION).',
        schema: errorSchema,
      },
      413: { description: `The body is over ${formatBytes(upload.maxBytes)} (ERR_PAYLOAD_TOO_LARGE).`, schema: errorSchema },
      429: { description: 'Too many jobs waiting (ERR_TOO_MANY_JOBS).', schema: errorSchema },
    },
    async handler({ req, query }) {
      const body: Record<string, unknown> = {};
      for (const [name, text] of Object.entries(query)) body[name] = parameterValue(properties[name] ?? {}, text);
      const file = await readBody(req, upload.maxBytes);
      if (file.length === 0) throw validationError([{ path: 'body', message: `is required: ${upload.description}` }]);
      return new Reply(202, await jobs.create(generator.id, body, file));
    },
  };
}
