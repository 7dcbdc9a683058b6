/**
 * The web app's API types: JSON Schemas become the TypeScript types the client is checked
 * against, every operation of the real description gets an entry, and an endpoint whose answer
 * changes makes the client fail its type check (the build), not the page.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openApiToTypeScript, schemaType } from '../../../appliance/dashboard/web/build/api-types.js';
import { dashboardOpenApi } from '../../../appliance/dashboard/web/build/openapi-snapshot.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

let doc: any;
before(async () => {
  doc = await dashboardOpenApi();
});

test('schemas become types: scalars, nullable lists, enums, unions, records, arrays and references', () => {
  assert.equal(schemaType({ type: 'integer' }), 'number');
  assert.equal(schemaType({ type: ['string', 'null'] }), 'string | null');
  assert.equal(schemaType({ type: 'string', enum: ['idle', 'printing'] }), '"idle" | "printing"');
  assert.equal(schemaType({ const: 'user' }), '"user"');
  assert.equal(schemaType({ oneOf: [{ type: 'number' }, { type: 'null' }] }), 'number | null');
  assert.equal(schemaType({ type: 'array', items: { type: 'boolean' } }), 'Array<boolean>');
  assert.equal(schemaType({ $ref: '#/components/schemas/Error' }), 'Schemas["Error"]');
  assert.equal(schemaType({ type: 'object', additionalProperties: { type: 'number' } }), '{\n  [key: string]: number;\n}');
  assert.equal(
    schemaType({ type: 'object', required: ['a'], additionalProperties: false, properties: { a: { type: 'string' }, 'b-c': { type: 'number' } } }),
    '{\n  a: string;\n  "b-c"?: number;\n}',
  );
  assert.equal(schemaType({ type: 'object', additionalProperties: false }), 'Record<string, never>');
  assert.equal(schemaType({ anyOf: [{ type: 'string' }, {}] }), 'unknown');
  assert.equal(schemaType({ not: { type: 'string' } }), 'unknown');
});

test('every operation of the dashboard has an entry with its level, parameters, body and answer', () => {
  const text = openApiToTypeScript(doc);
  let operations = 0;
  for (const [urlPath, item] of Object.entries<any>(doc.paths)) {
    for (const method of Object.keys(item)) {
      operations++;
      assert.ok(text.includes(`${JSON.stringify(`${method.toUpperCase()} ${urlPath}`)}: {`), `${method} ${urlPath}`);
    }
  }
  assert.ok(operations > 50, `${operations} operations`);
  const entry = (key: string) => {
    const start = text.indexOf(`${JSON.stringify(key)}: {`);
    return text.slice(start, text.indexOf('\n  };', start));
  };
  assert.match(
    entry('POST /api/printers/{id}/control'),
    /path: \{\n\s+id: string;\n\s+\};[\s\S]*action: "pause" \| "resume" \| "stop";[\s\S]*ok: void;[\s\S]*level: "print"/,
  );
  assert.match(entry('GET /api/auth/setup'), /needed: boolean;[\s\S]*level: "public"/);
});

test('a changed answer fails the client type check; the real description passes it', () => {
  const work = mkdtempSync(path.join(ROOT, 'dist', 'web-typecheck-'));
  try {
    const client = path.join(work, 'client');
    cpSync(path.join(ROOT, 'appliance', 'dashboard', 'web', 'client'), client, { recursive: true });
    const check = () => spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', path.join(client, 'tsconfig.json')], { encoding: 'utf8' });
    writeFileSync(path.join(client, 'api', 'openapi.gen.ts'), openApiToTypeScript(doc));
    const passing = check();
    assert.equal(passing.status, 0, passing.stdout + passing.stderr);

    // The printer list answers `printers` instead of `items`.
    const changed = structuredClone(doc);
    const list = changed.paths['/api/printers'].get.responses['200'].content['application/json'].schema;
    list.properties = { printers: list.properties.items };
    list.required = ['printers'];
    writeFileSync(path.join(client, 'api', 'openapi.gen.ts'), openApiToTypeScript(changed));
    const failing = check();
    assert.notEqual(failing.status, 0);
    assert.match(failing.stdout, /fleet\/store\.ts.*Property 'items' does not exist/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
