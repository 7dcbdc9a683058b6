/**
 * The options of printyard-node-red (schema format: common/config.ts): command line and
 * PRINTYARD_NODE_RED_* environment variables, read at start. Node-RED keeps its flows,
 * credentials and context under `<data-dir>/node-red`, beside the dashboard's state: the data
 * directory defaults the same way as the dashboard's ($PRINTYARD_DATA_DIR, else the XDG folder).
 */
import path from 'node:path';
import { JSON_SCHEMA_DIALECT, parseConfig, type ConfigSchema, type ConfigValues } from '../common/config.js';
import { LOG_LEVELS } from '../common/logger.js';
import { folderDefaults } from '../dashboard/options.js';

type Env = Readonly<Record<string, string | undefined>>;

export { folderDefaults };

export const OPTIONS = {
  $schema: JSON_SCHEMA_DIALECT,
  type: 'object',
  'x-env-prefix': 'PRINTYARD_NODE_RED_',
  additionalProperties: false,
  properties: {
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 1880, description: 'TCP port of the editor and the flows (0 picks a free one)' },
    bind: {
      type: 'string',
      default: '127.0.0.1',
      description: 'address to listen on; loopback keeps the editor on the box (sign-in is the dashboard admin session either way)',
    },
    data_dir: { type: 'string', description: 'Node-RED keeps its files in <data-dir>/node-red ($PRINTYARD_DATA_DIR also sets it)' },
    dashboard_url: {
      type: 'string',
      format: 'http-url',
      default: 'http://127.0.0.1:3000',
      description: "the dashboard that signs editor users in (GET /api/auth/me), and the nodes' default dashboard",
    },
    log_level: { type: 'string', enum: LOG_LEVELS, default: 'info', description: 'error, warn, info or debug' },
  },
} as const satisfies ConfigSchema;

export type NodeRedOptions = ConfigValues<typeof OPTIONS>;

/** Defaults, then the environment, then the command line; throws ERR_INVALID_CONFIG naming the option. */
export function loadOptions(argv: readonly string[], env: Env): NodeRedOptions {
  const options = parseConfig(OPTIONS, { argv, env, defaults: folderDefaults(env) });
  return { ...options, data_dir: path.resolve(options.data_dir), dashboard_url: options.dashboard_url.replace(/\/+$/, '') };
}
