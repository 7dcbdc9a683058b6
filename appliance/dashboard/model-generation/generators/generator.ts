/**
 * What a generator is: an id (its route is POST /api/ai-model/<id>), a title, its parameters as a
 * JSON Schema (the request body is validated against it, and GET /api/ai-model/generators lists
 * it), and the build from parameters to a closed solid. Every parameter has a default, so an empty
 * body builds the generator's example.
 */
import type { JsonSchema } from '../../../common/json-schema.js';
import type { ManifoldToplevel, SolidMesh } from '../geometry/manifold.js';

export interface GeneratedModel {
  mesh: SolidMesh;
  /** Facts about the model a user needs to print it (e.g. the temperature of each tower block). */
  notes?: Record<string, unknown>;
}

/**
 * A generator whose input is a file (a picture): the file is the raw request body, the
 * parameters come in the query string, and the job is given the file's bytes.
 */
export interface GeneratorUpload {
  /** Media type (or range) of the body, for the OpenAPI description; the file is recognised by its content, whatever its Content-Type. */
  mediaType: string;
  maxBytes: number;
  /** What the body holds, in words for the route's description. */
  description: string;
  /** Why this file cannot be used with these parameters (read cheaply, while the request waits), or null. */
  check(file: Uint8Array, params: Record<string, unknown>): string | null;
}

export interface Generator {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** An object schema; every property has a `default`. */
  readonly schema: JsonSchema;
  /** A problem the schema cannot express (an inner part larger than the outer one), or null. */
  check?(params: Record<string, unknown>): string | null;
  /** Largest JSON body (bytes); 16 KB when omitted. */
  readonly maxBodyBytes?: number;
  /** Set when the input is an uploaded file rather than a JSON body. */
  readonly upload?: GeneratorUpload;
  generate(
    kernel: ManifoldToplevel,
    params: Record<string, unknown>,
    progress: (fraction: number) => void,
    /** The uploaded file, for generators with `upload`. */
    file?: Uint8Array,
  ): Promise<GeneratedModel>;
}

/** The parameters with every omitted property set to its schema default. */
export function withDefaults(schema: JsonSchema, body: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { default?: unknown }>;
  const params: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) params[key] = body[key] ?? property.default;
  return params;
}

/** A number property in mm (or another unit named in the description) with bounds and a default. */
export function numberParam(description: string, minimum: number, maximum: number, value: number): JsonSchema {
  return { type: 'number', description, minimum, maximum, default: value };
}

export function integerParam(description: string, minimum: number, maximum: number, value: number): JsonSchema {
  return { type: 'integer', description, minimum, maximum, default: value };
}
