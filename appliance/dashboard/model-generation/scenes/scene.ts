/**
 * What a scene is: a named set of generated models, each placed on the bed with its own transform,
 * and optionally the profiles to slice it with. The request body's JSON Schema is here, so the
 * routes, the store and the OpenAPI description read one definition.
 *
 * Coordinates: an object's `translate` x/y put the centre of its bounding box that many mm from
 * the centre of the printer's printable area, so a scene keeps its layout on any printer; every
 * object rests on the bed (z = 0) unless `translate.z` sinks it into the bed (negative: the part
 * below the bed is cut away, as slicers do with "sinking" objects). Transforms apply in the object's
 * own frame in a fixed order: mirror, scale, rotate about X, then Y, then Z (degrees,
 * counter-clockwise looking down each axis), then the placement.
 */
import { NAME_FORMAT, NAME_RULE } from '../../../common/names.js';
import type { JsonSchema } from '../../../common/json-schema.js';

/** Scenes kept: a new one past this is 409 (delete one first). */
export const MAX_SCENES = 50;
/** Objects in one scene. */
export const MAX_OBJECTS = 32;
/** Scale factors, per axis. */
export const MIN_SCALE = 0.01;
export const MAX_SCALE = 100;
/** The largest an object may be along any axis once transformed (mm); printers top out below it. */
export const MAX_OBJECT_SIZE_MM = 2000;
/** The smallest extent an object may have along any axis once transformed (mm): less than a layer. */
export const MIN_OBJECT_SIZE_MM = 0.1;
/** How far an object may sit from the bed's centre (mm), and sink into the bed. */
export const MAX_OFFSET_MM = 2000;

export type Axis3 = { x: number; y: number; z: number };

export interface SceneTransform {
  translate: Axis3;
  rotate: Axis3;
  scale: Axis3;
  mirror: { x: boolean; y: boolean; z: boolean };
}

export interface SceneObject {
  /** The generation job whose result this object is. */
  job_id: string;
  name: string;
  transform: SceneTransform;
}

/** Profile ids of the slicing catalogue; each null until chosen. */
export interface SceneProfiles {
  printer_id: string | null;
  filament_ids: string[] | null;
  process_id: string | null;
}

export interface Scene extends SceneProfiles {
  id: string;
  name: string;
  objects: SceneObject[];
  created_at: string;
  updated_at: string;
}

/** The body of POST and PUT: every field but `name` and `objects` may be left out. */
export interface SceneInput {
  name: string;
  objects: {
    job_id: string;
    name?: string;
    transform?: {
      translate?: Partial<Axis3>;
      rotate?: Partial<Axis3>;
      scale?: number | Partial<Axis3>;
      mirror?: Partial<SceneTransform['mirror']>;
    };
  }[];
  printer_id?: string | null;
  filament_ids?: string[] | null;
  process_id?: string | null;
}

const mm = (description: string, minimum: number, maximum: number): JsonSchema => ({ type: 'number', minimum, maximum, description });
const factor: JsonSchema = { type: 'number', minimum: MIN_SCALE, maximum: MAX_SCALE };
const DEGREES: JsonSchema = { type: 'number', minimum: -360, maximum: 360 };
const profileId = (what: string): JsonSchema => ({ type: ['string', 'null'], minLength: 1, maxLength: 200, description: `${what} profile id` });

export const TRANSFORM_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: "Applied in the object's own frame: mirror, scale, rotate X, Y, Z; then placed. Every part may be left out.",
  properties: {
    translate: {
      type: 'object',
      additionalProperties: false,
      description: 'Where the object goes (mm).',
      properties: {
        x: mm("The centre of the object's bounding box from the centre of the printable area, along X (default 0).", -MAX_OFFSET_MM, MAX_OFFSET_MM),
        y: mm('The same along Y (default 0).', -MAX_OFFSET_MM, MAX_OFFSET_MM),
        z: mm('0 (the default) rests the object on the bed; a negative value sinks it, and the part below the bed is cut away.', -MAX_OFFSET_MM, 0),
      },
    },
    rotate: {
      type: 'object',
      additionalProperties: false,
      description: 'Degrees about X, then Y, then Z, counter-clockwise looking down each axis (default 0).',
      properties: { x: DEGREES, y: DEGREES, z: DEGREES },
    },
    scale: {
      oneOf: [
        { ...factor, description: 'One factor for every axis.' },
        {
          type: 'object',
          additionalProperties: false,
          description: 'A factor per axis (default 1).',
          properties: { x: factor, y: factor, z: factor },
        },
      ],
    },
    mirror: {
      type: 'object',
      additionalProperties: false,
      description: 'Axes to mirror along (`x: true` flips the X coordinates).',
      properties: { x: { type: 'boolean' }, y: { type: 'boolean' }, z: { type: 'boolean' } },
    },
  },
};

export const SCENE_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'objects'],
  properties: {
    name: { type: 'string', format: NAME_FORMAT, minLength: 1, maxLength: 100, description: `The scene's name (${NAME_RULE}).` },
    objects: {
      type: 'array',
      maxItems: MAX_OBJECTS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['job_id'],
        properties: {
          job_id: { type: 'string', minLength: 1, maxLength: 64, description: 'A finished generation job (GET /api/ai-model/jobs).' },
          name: {
            type: 'string',
            format: NAME_FORMAT,
            minLength: 1,
            maxLength: 100,
            description: "The object's name in the 3MF and the G-code's object labels (default: the generator and a number).",
          },
          transform: TRANSFORM_SCHEMA,
        },
      },
    },
    printer_id: profileId('The printer'),
    filament_ids: {
      type: ['array', 'null'],
      minItems: 1,
      maxItems: 16,
      items: { type: 'string', minLength: 1, maxLength: 200 },
      description: 'Filament profile ids, one per filament slot.',
    },
    process_id: profileId('The process'),
  },
};

const axisSchema = (description: string): JsonSchema => ({
  type: 'object',
  required: ['x', 'y', 'z'],
  description,
  properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' } },
});

/** A scene as the API shows it: what was stored, each object's state and size, and the scene's. */
export const SCENE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'objects', 'printer_id', 'filament_ids', 'process_id', 'created_at', 'updated_at', 'missing'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    objects: {
      type: 'array',
      items: {
        type: 'object',
        required: ['job_id', 'name', 'transform', 'missing'],
        properties: {
          job_id: { type: 'string' },
          name: { type: 'string' },
          transform: {
            type: 'object',
            required: ['translate', 'rotate', 'scale', 'mirror'],
            description: 'Every part filled in: scale per axis, mirror per axis.',
            properties: {
              translate: axisSchema('mm'),
              rotate: axisSchema('degrees'),
              scale: axisSchema('factors'),
              mirror: { type: 'object', properties: { x: { type: 'boolean' }, y: { type: 'boolean' }, z: { type: 'boolean' } } },
            },
          },
          missing: {
            type: ['string', 'null'],
            description: 'Why the object cannot be used any more (its generation job was deleted), or null.',
          },
        },
      },
    },
    printer_id: { type: ['string', 'null'] },
    filament_ids: { type: ['array', 'null'], items: { type: 'string' } },
    process_id: { type: ['string', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    missing: { type: 'integer', description: 'How many objects are missing; a scene with missing objects cannot be sliced.' },
  },
};

/** The stored transform of an input, every part filled in. */
export function fullTransform(input: NonNullable<SceneInput['objects'][number]['transform']> = {}): SceneTransform {
  const { translate = {}, rotate = {}, scale = 1, mirror = {} } = input;
  const factors = typeof scale === 'number' ? { x: scale, y: scale, z: scale } : { x: scale.x ?? 1, y: scale.y ?? 1, z: scale.z ?? 1 };
  return {
    translate: { x: translate.x ?? 0, y: translate.y ?? 0, z: translate.z ?? 0 },
    rotate: { x: rotate.x ?? 0, y: rotate.y ?? 0, z: rotate.z ?? 0 },
    scale: factors,
    mirror: { x: mirror.x ?? false, y: mirror.y ?? false, z: mirror.z ?? false },
  };
}
