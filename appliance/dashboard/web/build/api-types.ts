/**
 * The web app's API types, written from the dashboard's OpenAPI description: one entry per
 * operation, keyed `"GET /api/printers/{id}"`, with its path and query parameters, its body and
 * the JSON of its success answers. The client (client/api/client.ts) accepts only these keys and
 * shapes, so an endpoint that changes or goes away breaks the app's type check, not the page.
 *
 * The schemas are the dashboard's JSON-Schema subset (common/json-schema.ts): type (one or a
 * list), enum, const, properties/required/additionalProperties, items, oneOf/anyOf/allOf and
 * `$ref` to components. Anything else becomes `unknown`, which the client must narrow.
 */

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.length === 0) return 'never';
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 1 ? unique[0] : unique.map((p) => (p.includes('=>') ? `(${p})` : p)).join(' | ');
}

function objectType(schema: Json, indent: string): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(([name, sub]) => {
    const doc = isObject(sub) && typeof sub.description === 'string' ? `${inner}/** ${sub.description.replace(/\*\//g, '* /')} */\n` : '';
    return `${doc}${inner}${propertyName(name)}${required.has(name) ? '' : '?'}: ${schemaType(sub, inner)};`;
  });
  const extra = schema.additionalProperties;
  if (isObject(extra) || extra === true || (extra === undefined && lines.length === 0)) {
    const valueType = isObject(extra) ? schemaType(extra, inner) : 'unknown';
    // Declared properties must fit the index signature; a union keeps both readable.
    const values = lines.length > 0 ? union([valueType, ...Object.values(properties).map((s) => schemaType(s, inner))]) : valueType;
    lines.push(`${inner}[key: string]: ${values === 'never' ? 'unknown' : values};`);
  }
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

function typeOfName(name: unknown, schema: Json, indent: string): string {
  switch (name) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${schema.items === undefined ? 'unknown' : schemaType(schema.items, indent)}>`;
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

/** The TypeScript type of a JSON Schema. */
export function schemaType(schema: unknown, indent = ''): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (!isObject(schema)) return 'never';
  if (typeof schema.$ref === 'string') {
    const name = /^#\/components\/schemas\/([A-Za-z0-9_]+)$/.exec(schema.$ref)?.[1];
    return name === undefined ? 'unknown' : `Schemas[${JSON.stringify(name)}]`;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => JSON.stringify(v)));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) return union(list.map((s) => schemaType(s, indent)));
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => `(${schemaType(s, indent)})`).join(' & ');
  if (Array.isArray(schema.type)) return union(schema.type.map((t) => typeOfName(t, schema, indent)));
  if (schema.type !== undefined) return typeOfName(schema.type, schema, indent);
  if (isObject(schema.properties)) return objectType(schema, indent);
  return 'unknown';
}

function resolveResponse(doc: Json, response: unknown): Json {
  if (isObject(response) && typeof response.$ref === 'string') {
    const name = response.$ref.split('/').pop() ?? '';
    const components = isObject(doc.components) && isObject(doc.components.responses) ? doc.components.responses : {};
    return isObject(components[name]) ? components[name] : {};
  }
  return isObject(response) ? response : {};
}

/** What a success answer carries: its JSON, `string` for text, `Blob` for other content, `void` for none. */
function successType(doc: Json, responses: Json): string {
  const types: string[] = [];
  for (const [status, raw] of Object.entries(responses)) {
    if (!/^2\d\d$/.test(status)) continue;
    const content = resolveResponse(doc, raw).content;
    if (!isObject(content)) {
      types.push('void');
      continue;
    }
    for (const [mediaType, media] of Object.entries(content)) {
      if (mediaType.includes('json')) types.push(schemaType(isObject(media) ? media.schema : undefined, '    '));
      else if (mediaType.startsWith('text/') || mediaType === 'application/x-ndjson') types.push('string');
      else types.push('Blob');
    }
  }
  return union(types.length === 0 ? ['void'] : types);
}

function parametersType(parameters: unknown, where: 'path' | 'query'): string {
  const list = (Array.isArray(parameters) ? parameters : []).filter((p): p is Json => isObject(p) && p.in === where);
  if (list.length === 0) return 'never';
  const fields = list.map((p) => {
    const value = schemaType(p.schema, '    ');
    // Query values travel as text: numbers and booleans may be given as such and are sent as strings.
    const loose = where === 'query' && /^(number|boolean)( \| null)?$/.test(value) ? `${value} | string` : value;
    return `    ${propertyName(String(p.name))}${p.required === true ? '' : '?'}: ${loose};`;
  });
  return `{\n${fields.join('\n')}\n  }`;
}

function bodyType(requestBody: unknown): string {
  if (!isObject(requestBody) || !isObject(requestBody.content)) return 'never';
  const [mediaType, media] = Object.entries(requestBody.content)[0] ?? [];
  if (mediaType === undefined) return 'never';
  if (mediaType.includes('json')) return schemaType(isObject(media) ? media.schema : undefined, '  ');
  // The browser writes a form's multipart body and its boundary itself.
  if (mediaType === 'multipart/form-data') return 'FormData';
  return 'Blob | ArrayBuffer | Uint8Array | string';
}

/** The module's text: `Schemas`, and `Operations` keyed by `"METHOD /path"`. */
export function openApiToTypeScript(doc: Json): string {
  const out: string[] = ["// Generated by appliance/dashboard/web/build/api-types.ts from the dashboard's OpenAPI description. Do not edit.", ''];
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  out.push('export interface Schemas {');
  for (const [name, schema] of Object.entries(schemas)) out.push(`  ${propertyName(name)}: ${schemaType(schema, '  ')};`);
  out.push('}', '', 'export interface Operations {');
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const summary = typeof op.summary === 'string' ? op.summary : '';
      out.push(`  /** ${summary.replace(/\*\//g, '* /')} (${String(op['x-level'] ?? 'view')}) */`);
      out.push(`  ${JSON.stringify(`${method.toUpperCase()} ${path}`)}: {`);
      out.push(`    path: ${parametersType(op.parameters, 'path').replace(/\n/g, '\n  ')};`);
      out.push(`    query: ${parametersType(op.parameters, 'query').replace(/\n/g, '\n  ')};`);
      out.push(`    body: ${bodyType(op.requestBody).replace(/\n/g, '\n  ')};`);
      out.push(`    ok: ${successType(doc, isObject(op.responses) ? op.responses : {})};`);
      out.push(`    level: ${JSON.stringify(String(op['x-level'] ?? 'view'))};`);
      out.push('  };');
    }
  }
  out.push('}', '');
  return out.join('\n');
}
