/**
 * JSON Schemas of the auth routes: the router validates request bodies against them and the
 * OpenAPI description shows them, so what is documented is what is enforced.
 */
import { NAME_FORMAT } from '../../common/names.js';
import { ROLES, type JsonSchema } from '../http/route.js';
import { API_KEY_PATTERN } from './api-keys.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password.js';
import { USERNAME_PATTERN } from './users.js';

/** The error body, as the OpenAPI description defines it once. */
export const ERROR_SCHEMA_REF: JsonSchema = { $ref: '#/components/schemas/Error' };

const ROLE: JsonSchema = { type: 'string', enum: [...ROLES], description: 'view < print < admin; each includes the ones before.' };
const ID: JsonSchema = { type: 'string', minLength: 1, maxLength: 64 };
const TIME: JsonSchema = { type: 'string', format: 'date-time' };
const USERNAME: JsonSchema = {
  type: 'string',
  pattern: USERNAME_PATTERN,
  description: '1 to 64 letters, digits, ".", "_" or "-"; unique without regard to case.',
};
const NEW_PASSWORD: JsonSchema = {
  type: 'string',
  format: 'password',
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description:
    `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters; not one character repeated, not the user name and not one of ` +
    'the most common passwords (without regard to case). A refusal is a 400 ERR_VALIDATION naming the rule.',
};
const SETUP_CODE: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description:
    'The one-time setup code from the dashboard log or `<data-dir>/setup-code`, e.g. `7K2QD-M9X4T-0HVWP-R3NZE` ' +
    '(case, spaces and hyphens do not matter).',
};

export const ID_PARAM: Record<string, JsonSchema> = { id: ID };

export const USER_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'A user; the password hash is never shown.',
  required: ['id', 'username', 'role', 'created_at', 'updated_at'],
  additionalProperties: false,
  properties: { id: ID, username: USERNAME, role: ROLE, created_at: TIME, updated_at: TIME },
};

export const USER_LIST_SCHEMA: JsonSchema = { type: 'array', items: USER_SCHEMA };

export const SETUP_STATE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['needed', 'setup_code_required'],
  additionalProperties: false,
  properties: {
    needed: { type: 'boolean', description: 'True while there is no admin: POST /api/auth/setup creates one.' },
    setup_code_required: {
      type: 'boolean',
      description: 'True when the appliance has had users and lost them: POST /api/auth/setup then needs `setup_code`.',
    },
  },
};

export const SETUP_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: false,
  properties: {
    username: USERNAME,
    password: NEW_PASSWORD,
    setup_code: { ...SETUP_CODE, description: `Only when setup_code_required. ${SETUP_CODE.description}` },
  },
};

export const LOGIN_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: false,
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 256 },
    password: { type: 'string', format: 'password', minLength: 1, maxLength: PASSWORD_MAX_LENGTH },
    device_token: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'The `device_token` of an earlier login to this account: gets past a lock of the account (not of this address).',
    },
    setup_code: { ...SETUP_CODE, description: `Gets past a lock of the account once. ${SETUP_CODE.description}` },
  },
};

export const LOGIN_RESPONSE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['token', 'expiresIn', 'device_token'],
  additionalProperties: false,
  properties: {
    token: { type: 'string', description: 'A JWT (HS256); send it as `Authorization: Bearer <token>`.' },
    expiresIn: { type: 'string', description: 'Lifetime of the token, as configured (auth.token_expiry), e.g. 24h.', examples: ['24h'] },
    device_token: {
      type: 'string',
      description:
        'Proof that this client logged in to this account, for 90 days or until the password changes: keep it and ' +
        'send it with later logins. It is no session token.',
    },
  },
};

export const ME_SCHEMA: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      description: 'A user with a session token.',
      required: ['kind', 'id', 'username', 'role', 'created_at', 'updated_at', 'token_expires_at'],
      additionalProperties: false,
      properties: {
        kind: { const: 'user' },
        id: ID,
        username: USERNAME,
        role: ROLE,
        created_at: TIME,
        updated_at: TIME,
        token_expires_at: { type: ['string', 'null'], format: 'date-time' },
      },
    },
    {
      type: 'object',
      description: "An API key; `role` is the effective one (never above its owner's current role).",
      required: ['kind', 'id', 'name', 'role', 'owner_id', 'created_at', 'last_used_at'],
      additionalProperties: false,
      properties: {
        kind: { const: 'api_key' },
        id: ID,
        name: { type: 'string' },
        role: ROLE,
        owner_id: ID,
        created_at: TIME,
        last_used_at: { type: ['string', 'null'], format: 'date-time' },
      },
    },
  ],
};

export const NEW_USER_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['username', 'password', 'role'],
  additionalProperties: false,
  properties: { username: USERNAME, password: NEW_PASSWORD, role: ROLE },
};

export const USER_CHANGES_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The fields to change; at least one.',
  additionalProperties: false,
  properties: { role: ROLE, password: NEW_PASSWORD },
};

const API_KEY_FIELDS: Record<string, JsonSchema> = {
  id: ID,
  name: { type: 'string', minLength: 1, maxLength: 100 },
  role: ROLE,
  owner_id: { ...ID, description: 'The user the key acts for; the key goes when that user is deleted.' },
  prefix: { type: 'string', description: 'The start of the key, to tell keys apart.' },
  created_at: TIME,
  last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'Updated in memory at every use, saved at most once a minute.' },
};
const API_KEY_REQUIRED = ['id', 'name', 'role', 'owner_id', 'prefix', 'created_at', 'last_used_at'];

export const API_KEY_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'An API key without its secret.',
  required: API_KEY_REQUIRED,
  additionalProperties: false,
  properties: API_KEY_FIELDS,
};

export const API_KEY_LIST_SCHEMA: JsonSchema = { type: 'array', items: API_KEY_SCHEMA };

export const NEW_API_KEY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['name', 'role'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100, format: NAME_FORMAT, description: 'What the key is for, e.g. "node-red".' },
    role: { ...ROLE, description: 'At most the role of the creator.' },
  },
};

export const CREATED_API_KEY_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The new key. `key` is shown this once and cannot be retrieved later.',
  required: [...API_KEY_REQUIRED, 'key'],
  additionalProperties: false,
  properties: {
    ...API_KEY_FIELDS,
    key: { type: 'string', pattern: API_KEY_PATTERN, description: 'Send as `X-API-Key: <key>` or `Authorization: Bearer <key>`.' },
  },
};
