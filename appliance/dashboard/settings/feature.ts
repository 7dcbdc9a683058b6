/**
 * GET and PATCH /api/settings: the box's settings (config.json) for admins, with the schema that
 * describes every key (so a client builds its form from it) and the keys the environment holds
 * (they win over the file whatever is saved). The slicer service's section has its own endpoint,
 * whose token rules this one would bypass: a patch of it is refused with a pointer there.
 */
import { configKeys, envName } from '../../common/config.js';
import { normalizeName } from '../../common/names.js';
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { validationError } from '../http/validate.js';
import { redactSettings, SETTINGS_SCHEMA } from './schema.js';
import type { SettingsPatch } from './settings.js';

const TAG = 'settings';
/** Sections changed through an endpoint of their own. */
const OWN_ENDPOINT: Readonly<Record<string, string>> = { slicer_service: 'POST /api/slicer/remote/configure' };

const ENVIRONMENT_SCHEMA = {
  type: 'array',
  description: 'keys set by the environment: their values win over config.json',
  items: {
    type: 'object',
    required: ['key', 'variable'],
    properties: { key: { type: 'string', description: 'e.g. rate_limit.per_minute' }, variable: { type: 'string' } },
  },
};
const SETTINGS_VIEW_SCHEMA = {
  type: 'object',
  required: ['values', 'environment', 'schema'],
  properties: {
    values: { type: 'object', description: 'the effective values by section; secrets only as "(set)" or "(empty)"' },
    environment: ENVIRONMENT_SCHEMA,
    schema: { type: 'object', description: 'the JSON Schema of config.json: sections, keys, types, limits, defaults, descriptions' },
  },
};

/** Names are stored as the name rule says: trimmed, NFC. */
function normalized(patch: SettingsPatch): SettingsPatch {
  const box = patch.box;
  return box?.name === undefined ? patch : { ...patch, box: { ...box, name: normalizeName(box.name) } };
}

export function createSettingsFeature(ctx: Pick<DashboardContext, 'settings'>): DashboardFeature {
  const environment = () => {
    const held: { key: string; variable: string }[] = [];
    for (const key of configKeys(SETTINGS_SCHEMA)) {
      const section = (ctx.settings.overrides as Record<string, Record<string, unknown> | undefined>)[key.path[0]];
      const variable = envName(SETTINGS_SCHEMA, key);
      if (variable !== null && section?.[key.path[1]] !== undefined) held.push({ key: key.path.join('.'), variable });
    }
    return held;
  };
  const view = () => ({ values: redactSettings(ctx.settings.current), environment: environment(), schema: SETTINGS_SCHEMA });

  return {
    name: 'settings',
    routes: [
      {
        method: 'get',
        path: '/api/settings',
        level: 'admin',
        tag: TAG,
        summary: "The box's settings, their schema and the keys the environment holds",
        responses: { 200: { description: 'The settings.', schema: SETTINGS_VIEW_SCHEMA } },
        handler: () => view(),
      },
      {
        method: 'patch',
        path: '/api/settings',
        level: 'admin',
        tag: TAG,
        summary: 'Change settings (saved to config.json at once)',
        description:
          'The body is an object of sections with the keys to change, e.g. `{"box": {"name": "Workshop"}}`; every key is checked against ' +
          'the schema and applied at once. A key the environment holds keeps its environment value (it is listed in `environment`) but ' +
          'the file keeps the new one. The slicer service section is changed through POST /api/slicer/remote/configure.',
        body: { kind: 'json', schema: { type: 'object' }, maxBytes: 64 * 1024 },
        responses: {
          200: { description: 'The settings after the change.', schema: SETTINGS_VIEW_SCHEMA },
          400: { description: 'An unknown section or key, a value of the wrong type or range, or a section with its own endpoint (ERR_VALIDATION).' },
        },
        handler: async ({ body }) => {
          const patch = body as Record<string, unknown>;
          const elsewhere = Object.keys(patch).filter((section) => OWN_ENDPOINT[section] !== undefined);
          if (elsewhere.length > 0) {
            throw validationError(elsewhere.map((section) => ({ path: `body/${section}`, message: `is changed through ${OWN_ENDPOINT[section]}` })));
          }
          await ctx.settings.update(normalized(patch as SettingsPatch));
          return view();
        },
      },
    ],
  };
}
