/**
 * The options of printyard-dashboard (schema format: common/config.ts): command line and
 * PRINTYARD_DASHBOARD_* environment variables, read at start. They say where and how the server
 * runs; what it does is configured in `<data-dir>/config.json` (settings/).
 *
 * The data directory defaults to $PRINTYARD_DATA_DIR (the appliance image sets it), else the XDG
 * data directory (~/.local/share/printyard), like the slicer service's XDG folders: `npm start`
 * from a clean clone then works without arguments and leaves no state in the working tree.
 */
import os from 'node:os';
import path from 'node:path';
import { JSON_SCHEMA_DIALECT, parseConfig, type ConfigSchema, type ConfigValues } from '../common/config.js';
import { LOG_LEVELS } from '../common/logger.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The defaults that depend on the environment, so are not in the schema. */
export function folderDefaults(env: Env): Record<string, string> {
  if (env.PRINTYARD_DATA_DIR) return { data_dir: path.resolve(env.PRINTYARD_DATA_DIR) };
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.local', 'share');
  return { data_dir: path.join(base, 'printyard') };
}

export const OPTIONS = {
  $schema: JSON_SCHEMA_DIALECT,
  type: 'object',
  'x-env-prefix': 'PRINTYARD_DASHBOARD_',
  additionalProperties: false,
  properties: {
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 3000, description: 'TCP port of the HTTP server (0 picks a free one)' },
    bind: { type: 'string', default: '0.0.0.0', description: 'address to listen on' },
    data_dir: { type: 'string', description: 'config.json and the state files live here ($PRINTYARD_DATA_DIR also sets it)' },
    slicer_token_file: {
      type: 'string',
      default: '',
      description:
        "the token file shared with the box's own slicer service (created, mode 600, if missing): " +
        'a new config.json enables the slicer service with it',
    },
    log_level: { type: 'string', enum: LOG_LEVELS, default: 'info', description: 'error, warn, info or debug' },
  },
} as const satisfies ConfigSchema;

export type DashboardOptions = ConfigValues<typeof OPTIONS>;

/** Defaults, then the environment, then the command line; throws ERR_INVALID_CONFIG naming the option. */
export function loadOptions(argv: readonly string[], env: Env): DashboardOptions {
  const options = parseConfig(OPTIONS, { argv, env, defaults: folderDefaults(env) });
  return { ...options, data_dir: path.resolve(options.data_dir) };
}
