/**
 * The mesh routes. Each reads the model from the raw request body (50 MB at most, refused with
 * 413 from its Content-Length before a byte is read, or as soon as a chunked body passes it),
 * does one job, and answers the mesh in the format asked for (by default the upload's own) with
 * the small report in `X-Mesh-Report`; analyze answers the full report as JSON.
 */
import type { Request } from 'hyper-express';
import { AppError, ErrorCode } from '../../common/errors.js';
import { readBody } from '../http/body.js';
import { Reply, type ResponseSpec, type RouteSpec } from '../http/route.js';
import { validationError } from '../http/validate.js';
import { analyseModel, headerReport, type ModelReport } from './analysis.js';
import { formatQuery, meshFormat, nameQuery, transformOptions, transformQuery } from './options.js';
import { MESH_FORMATS, type MeshFormat, type MeshModel, type MeshObject, readMeshModel } from './read-model.js';
import { modelReportSchema } from './schemas.js';
import { splitParts } from './split.js';
import { transformModel } from './transform.js';
import { CONTENT_TYPES, writeMesh, zipOfMeshes } from './writers.js';

export const MESH_BODY_MAX_BYTES = 50 * 1024 * 1024;
const TAG = 'mesh';
export const REPORT_HEADER = 'x-mesh-report';

const modelBody = {
  kind: 'raw' as const,
  contentType: 'application/octet-stream',
  maxBytes: MESH_BODY_MAX_BYTES,
};

const errors: Record<number, ResponseSpec> = {
  400: { description: 'No body, or a query parameter that does not fit (ERR_VALIDATION, naming it in `details`).' },
  413: { description: 'The model is over 50 MB, or a 3MF would inflate to more than 512 MB or 100 times its size (ERR_PAYLOAD_TOO_LARGE).' },
  415: { description: 'The body is not STL (binary or ASCII), 3MF or OBJ (ERR_UNSUPPORTED_MODEL).' },
  422: { description: 'The body is one of those formats but broken, e.g. a truncated STL or an OBJ face naming a missing vertex (ERR_BAD_MODEL).' },
};

const meshAnswer = (what: string): ResponseSpec => ({
  description: `${what} The X-Mesh-Report header holds the report's totals as JSON (the analyze body without \`objects\`; \`warnings\` is a count).`,
  contentType: 'model/stl, model/3mf, model/obj',
});

async function receiveModel(req: Request, query: Record<string, string>): Promise<MeshModel> {
  const bytes = await readBody(req, MESH_BODY_MAX_BYTES);
  if (bytes.length === 0) throw validationError([{ path: 'body', message: 'is required (the model file: STL, 3MF or OBJ)' }]);
  return readMeshModel(bytes, query.name ?? 'model');
}

function meshReply(objects: readonly MeshObject[], format: MeshFormat | 'zip', body: Uint8Array, report: ModelReport, baseName: string): Reply {
  return new Reply(200, Buffer.from(body.buffer, body.byteOffset, body.byteLength), {
    'content-type': CONTENT_TYPES[format],
    'content-disposition': `attachment; filename="${baseName.replace(/[^A-Za-z0-9._-]+/g, '_')}.${format}"`,
    [REPORT_HEADER]: headerReport(report),
    'x-mesh-objects': String(objects.length),
  });
}

function baseName(model: MeshModel): string {
  return model.objects.length === 1 ? model.objects[0].name : 'model';
}

function repairedObjects(model: MeshModel): { objects: MeshObject[]; report: ModelReport } {
  const { report, repairs } = analyseModel(model);
  return { objects: model.objects.map((o, k) => ({ name: o.name, mesh: repairs[k].mesh })), report };
}

function splitAll(model: MeshModel): { parts: MeshObject[]; report: ModelReport } {
  const { objects, report } = repairedObjects(model);
  return { parts: objects.flatMap((o) => splitParts(o.name, o.mesh)), report };
}

export function meshRoutes(): RouteSpec[] {
  const route = (
    path: string,
    summary: string,
    description: string,
    rest: Pick<RouteSpec, 'responses' | 'handler'> & Partial<Pick<RouteSpec, 'query'>>,
  ): RouteSpec => ({
    method: 'post',
    path,
    level: 'print',
    tag: TAG,
    summary,
    description: `${description} The body is the model file itself (STL binary or ASCII, 3MF, OBJ), told by its content.`,
    body: modelBody,
    ...rest,
    query: { ...nameQuery, ...rest.query },
    responses: { ...errors, ...rest.responses },
  });
  return [
    route('/api/mesh/analyze', 'Analyse a model', 'Counts, size, volume and what needs repair, per object and in total.', {
      responses: { 200: { description: 'The report.', schema: modelReportSchema } },
      handler: async ({ req, query }) => {
        const { report } = analyseModel(await receiveModel(req, query));
        return new Reply(200, report, { [REPORT_HEADER]: headerReport(report) });
      },
    }),
    route(
      '/api/mesh/repair',
      'Repair a model',
      'Welds points closer than 0.1 µm, drops degenerate and duplicate triangles, turns every shell outward (cavities inward) and ' +
        'fills holes; the report says what was found and `repair` what changed. Self-intersections are not looked for.',
      {
        query: formatQuery("Format of the answer; the upload's by default (STL for STL)."),
        responses: { 200: meshAnswer('The repaired model.') },
        handler: async ({ req, query }) => {
          const model = await receiveModel(req, query);
          const { objects, report } = repairedObjects(model);
          const format = meshFormat(query, model.format);
          return meshReply(objects, format, writeMesh(objects, format), report, baseName(model));
        },
      },
    ),
    route('/api/mesh/convert', 'Convert a model to another format', 'The mesh as it is (not repaired), in another format; 3MF keeps objects apart.', {
      query: { format: { type: 'string', enum: [...MESH_FORMATS], required: true, description: 'Format of the answer.' } },
      responses: { 200: meshAnswer('The converted model.') },
      handler: async ({ req, query }) => {
        const model = await receiveModel(req, query);
        const format = meshFormat(query, model.format);
        return meshReply(model.objects, format, writeMesh(model.objects, format), analyseModel(model).report, baseName(model));
      },
    }),
    route(
      '/api/mesh/transform',
      'Transform a model',
      'Applied to all objects together, in this order whatever the order of the parameters: lay_flat, rotate, size, scale, mirror, translate, ' +
        'drop. The mesh is not repaired (lay_flat finds the outside on a repaired copy); the report describes the result.',
      {
        query: { ...formatQuery("Format of the answer; the upload's by default."), ...transformQuery },
        responses: { 200: meshAnswer('The transformed model.') },
        handler: async ({ req, query }) => {
          const options = transformOptions(query);
          const model = await receiveModel(req, query);
          const objects = transformModel(model.objects, options);
          const format = meshFormat(query, model.format);
          const report = analyseModel({ ...model, objects }).report;
          return meshReply(objects, format, writeMesh(objects, format), report, baseName(model));
        },
      },
    ),
    route(
      '/api/mesh/split',
      'Split a model into its parts',
      'The repaired model cut into its separate pieces (a cavity stays with the piece around it), named `<object>-<n>` from 1. ' +
        '`format=3mf` (the default) answers one 3MF with one object per part; `stl` or `obj` a zip with one file per part. ' +
        'X-Mesh-Objects is the number of parts.',
      {
        query: formatQuery('3mf (one package, default), or stl / obj (a zip of files).'),
        responses: { 200: { ...meshAnswer('The parts.'), contentType: 'model/3mf, application/zip' } },
        handler: async ({ req, query }) => {
          const model = await receiveModel(req, query);
          const { parts, report } = splitAll(model);
          const format = meshFormat(query, '3mf');
          if (format === '3mf') return meshReply(parts, '3mf', writeMesh(parts, '3mf'), report, baseName(model));
          return meshReply(parts, 'zip', zipOfMeshes(parts, format), report, baseName(model));
        },
      },
    ),
    route('/api/mesh/split/component', 'One part of a model', 'Part `index` (from 1, as /api/mesh/split numbers them) of the repaired model.', {
      query: {
        ...formatQuery("Format of the answer; the upload's by default."),
        index: { type: 'integer', minimum: 1, maximum: 100000, required: true, description: 'Which part, from 1.' },
      },
      responses: {
        200: meshAnswer('The part; the report describes the whole model.'),
        404: { description: 'The model has fewer parts (ERR_NOT_FOUND).' },
      },
      handler: async ({ req, query }) => {
        const model = await receiveModel(req, query);
        const { parts, report } = splitAll(model);
        const part = parts[Number(query.index) - 1];
        if (!part) throw new AppError(ErrorCode.notFound, 404, `the model has ${parts.length} part(s); there is no part ${query.index}`);
        const format = meshFormat(query, model.format);
        return meshReply([part], format, writeMesh([part], format), report, part.name);
      },
    }),
  ];
}
