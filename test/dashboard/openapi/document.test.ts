import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApi, openApiPath } from '../../../appliance/dashboard/openapi/document.js';
import type { RouteSpec } from '../../../appliance/dashboard/http/route.js';

const routes: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/health',
    level: 'public',
    tag: 'system',
    summary: 'health',
    rateLimited: false,
    responses: { 200: { description: 'ok', schema: { type: 'object' } } },
    handler: () => ({}),
  },
  {
    method: 'patch',
    path: '/api/printers/:id',
    level: 'admin',
    tag: 'printers',
    summary: 'change a printer',
    params: { id: { type: 'string', pattern: '^[a-z0-9-]+$' } },
    query: { dry_run: { type: 'boolean' } },
    body: { kind: 'json', schema: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } },
    responses: {
      200: { description: 'changed', schema: { type: 'object' } },
      404: { description: 'no such printer', schema: { $ref: '#/components/schemas/Error' } },
    },
    handler: () => ({}),
  },
  {
    method: 'post',
    path: '/api/files',
    level: 'print',
    tag: 'files',
    summary: 'upload',
    body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: 1e6 },
    responses: { 201: { description: 'stored' } },
    handler: () => undefined,
  },
  {
    method: 'get',
    path: '/api/printers/:id/snapshot',
    level: 'view',
    tag: 'printers',
    summary: 'picture',
    responses: { 200: { description: 'PNG', contentType: 'image/png' } },
    handler: () => undefined,
  },
];

test('paths use OpenAPI templates', () => {
  assert.equal(openApiPath('/api/printers/:id/files/:name'), '/api/printers/{id}/files/{name}');
});

test('the description passes the OpenAPI 3.1 schema', async () => {
  const validator = new Validator();
  const result = await validator.validate(buildOpenApi(routes));
  assert.deepEqual(result.errors, undefined);
  assert.equal(result.valid, true);
  assert.equal(validator.version, '3.1');
});

test('each operation carries its parameters, body, level and the common errors', () => {
  const doc = buildOpenApi(routes) as any;
  const patch = doc.paths['/api/printers/{id}'].patch;
  assert.deepEqual(patch.parameters, [
    { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+$' } },
    { name: 'dry_run', in: 'query', required: false, schema: { type: 'boolean' } },
  ]);
  assert.deepEqual(patch.requestBody.content['application/json'].schema.additionalProperties, false);
  assert.deepEqual(Object.keys(patch.responses).sort(), ['200', '400', '401', '403', '404', '413', '429', '500']);
  assert.equal(patch.responses['429'].$ref, '#/components/responses/RateLimited');
  assert.equal(patch['x-level'], 'admin');
  assert.match(patch.description, /Needs the admin level/);
  assert.equal(patch.security, undefined, 'the top-level security applies');

  const health = doc.paths['/api/health'].get;
  assert.deepEqual(health.security, []);
  assert.deepEqual(Object.keys(health.responses).sort(), ['200', '500'], 'public, not rate limited, no input');

  const upload = doc.paths['/api/files'].post;
  assert.deepEqual(Object.keys(upload.requestBody.content), ['multipart/form-data']);
  assert.deepEqual(doc.paths['/api/printers/{id}/snapshot'].get.responses['200'].content, { 'image/png': {} });
});

test('the error shape, the security schemes and the Retry-After header are components', () => {
  const doc = buildOpenApi(routes) as any;
  assert.deepEqual(doc.components.schemas.Error.required, ['error', 'code']);
  assert.ok(doc.components.schemas.Error.properties.details);
  assert.deepEqual(doc.components.securitySchemes.apiKey, {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'API key for machine clients.',
  });
  assert.equal(doc.components.securitySchemes.bearerAuth.bearerFormat, 'JWT');
  assert.ok(doc.components.responses.RateLimited.headers['Retry-After']);
  assert.deepEqual(
    doc.tags.map((t: { name: string }) => t.name),
    ['system', 'printers', 'files'],
  );
});

test('operation ids are unique', () => {
  const doc = buildOpenApi(routes) as any;
  const ids = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
  assert.equal(new Set(ids).size, ids.length);
});

test("the description's text lists every WebSocket event of the bus, with what it tells", () => {
  const text = (buildOpenApi(routes) as { info: { description: string } }).info.description;
  assert.match(text, /a WebSocket at `\/ws`/);
  for (const type of ['printer.status', 'queue.update', 'print.dispatched', 'history.added', 'spool.update', 'inventory.climate', 'printer.plate']) {
    assert.match(text, new RegExp(`^- \`${type.replace('.', '\\.')}\`: \\S`, 'm'), type);
  }
});
