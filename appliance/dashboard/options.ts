/**
 * The options of printyard-dashboard: command line and PRINTYARD_DASHBOARD_* environment
 * variables. They say where and how the server runs; what it does is configured in
 * `<data-dir>/config.json` (settings/).
 *
 * The data directory defaults to $PRINTYARD_DATA_DIR (the appliance image sets it), else the XDG
 * data directory (~/.local/share/printyard), like the slicer service's XDG folders: `npm start`
 * from a clean clone then works without arguments and leaves no state in the working tree.
 */
import os from 'node:os';
import path from 'node:path';
import { parseConfig, type ConfigSchema, type ConfigValues } from '../common/config.js';
import { LOG_LEVELS } from '../common/logger.js';

export const ENV_PREFIX = 'PRINTYARD_DASHBOARD_';

type Env = Readonly<Record<string, string | undefined>>;

export function defaultDataDir(env: Env): string {
  if (env.PRINTYARD_DATA_DIR) return path.resolve(env.PRINTYARD_DATA_DIR);
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.local', 'share');
  return path.join(base, 'printyard');
}

export const OPTIONS = {
  port: { type: 'integer', default: 3000, min: 0, max: 65535, help: 'TCP port of the HTTP server (0 picks a free one)' },
  bind: { type: 'string', default: '0.0.0.0', help: 'address to listen on' },
  data_dir: { type: 'string', default: defaultDataDir, help: 'config.json and the state files live here ($PRINTYARD_DATA_DIR also sets it)' },
  log_level: { type: 'enum', values: LOG_LEVELS, default: 'info', help: 'error, warn, info or debug' },
} as const satisfies ConfigSchema;

export type DashboardOptions = ConfigValues<typeof OPTIONS>;

/** Defaults, then the environment, then the command line; throws ERR_INVALID_CONFIG naming the option. */
export function loadOptions(argv: readonly string[], env: Env): DashboardOptions {
  const options = parseConfig(OPTIONS, { argv, env, envPrefix: ENV_PREFIX });
  return { ...options, data_dir: path.resolve(options.data_dir) };
}
