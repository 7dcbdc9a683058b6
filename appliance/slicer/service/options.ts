/**
 * The options of printyard-slicer (schema format: common/config.ts): command line,
 * PRINTYARD_SLICER_* environment variables, and `<config-dir>/slicer.json`, all read at start.
 * Defaults follow the contract (port 8765 on loopback, no token) and the XDG base directories for
 * the configuration and the job files.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configError, JSON_SCHEMA_DIALECT, parseConfig, type ConfigSchema, type ConfigValues } from '../../common/config.js';
import { isLoopback } from '../../common/http-server.js';
import { LOG_LEVELS } from '../../common/logger.js';
import { ensureTokenFile, readTokenFile } from '../../common/token-file.js';

export const SETTINGS_FILE = 'slicer.json';

type Env = Readonly<Record<string, string | undefined>>;

function xdgDir(env: Env, variable: string, fallback: string): string {
  const set = env[variable];
  return set && path.isAbsolute(set) ? set : path.join(env.HOME || os.homedir(), fallback);
}

/** The defaults that depend on the environment (folders under $HOME), so are not in the schema. */
export function folderDefaults(env: Env): Record<string, string> {
  return {
    config_dir: path.join(xdgDir(env, 'XDG_CONFIG_HOME', '.config'), 'printyard-slicer'),
    jobs_dir: path.join(xdgDir(env, 'XDG_CACHE_HOME', '.cache'), 'printyard-slicer', 'jobs'),
  };
}

export const OPTIONS = {
  $schema: JSON_SCHEMA_DIALECT,
  type: 'object',
  'x-env-prefix': 'PRINTYARD_SLICER_',
  additionalProperties: false,
  properties: {
    rest_port: { type: 'integer', minimum: 0, maximum: 65535, default: 8765, description: 'TCP port of the HTTP server (0 picks a free one)' },
    rest_bind: { type: 'string', default: '127.0.0.1', description: 'address to listen on; the default accepts local connections only' },
    rest_token: {
      type: 'string',
      default: '',
      'x-secret': true,
      description: 'bearer token required on every call but health and version; empty means none',
    },
    rest_token_file: {
      type: 'string',
      default: '',
      description: 'file holding the bearer token, read once at start (keeps it out of ps); not with --rest-token',
    },
    rest_token_create: {
      type: 'boolean',
      default: false,
      description: 'create --rest-token-file with a random token (mode 600) if it does not exist: the token the box shares with its dashboard',
    },
    config_dir: { type: 'string', 'x-file': false, description: 'profiles/, import/, printers.json and slicer.json live here' },
    jobs_dir: { type: 'string', description: 'where uploads, G-code and previews of jobs are kept' },
    workers: {
      type: 'integer',
      minimum: 1,
      maximum: 64,
      default: 1,
      description: 'slice jobs running at the same time, each in a process of its own',
    },
    queue_size: { type: 'integer', minimum: 0, maximum: 1000, default: 4, description: 'jobs waiting for a free worker; beyond that 429' },
    engine_threads: {
      type: ['integer', 'null'],
      minimum: 0,
      maximum: 64,
      default: null,
      description: 'geometry threads per job (0 = none; auto: by model size and cores)',
    },
    max_upload_mb: { type: 'number', exclusiveMinimum: 0, maximum: 16384, default: 100, description: 'largest model upload in MB; beyond that 413' },
    max_output_mb: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1048576,
      default: 1024,
      description: 'largest G-code file of a job in MB; a job that would write more fails',
    },
    min_free_mb: {
      type: 'integer',
      minimum: 0,
      maximum: 1048576,
      default: 256,
      description: 'free space in MB kept on the disk of the jobs dir; below it jobs are refused (507) or fail',
    },
    max_inflate_mb: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 4096,
      default: 512,
      description: 'most the parts of a 3MF may inflate to, in MB; beyond that 413',
    },
    max_inflate_ratio: {
      type: 'integer',
      minimum: 2,
      maximum: 1100,
      default: 100,
      description: 'most a 3MF may inflate to per byte of its size (past 1 MB); beyond that 413',
    },
    job_timeout_s: { type: 'integer', minimum: 1, default: 1800, description: 'a running job is cancelled after this many seconds' },
    keep_jobs: { type: 'integer', minimum: 1, default: 20, description: 'finished jobs (and their files) kept' },
    keep_hours: { type: 'number', exclusiveMinimum: 0, default: 24, description: 'finished jobs are removed this many hours after they finished' },
    shutdown_grace_s: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 3600,
      default: 30,
      description: 'on SIGTERM, how long a running job may take before it is cancelled',
    },
    reload_interval_s: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 3600,
      default: 3,
      description: 'how often the config dir is checked for changed profiles and printers',
    },
    keepalive_s: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 3600,
      default: 15,
      description: 'interval of keep-alive comments on slice event streams',
    },
    preview_max_px: { type: 'integer', minimum: 16, maximum: 2048, default: 1024, description: 'largest width or height of POST /api/preview' },
    log_level: { type: 'string', enum: LOG_LEVELS, default: 'info', description: 'error, warn, info or debug' },
  },
} as const satisfies ConfigSchema;

export type SlicerOptions = ConfigValues<typeof OPTIONS>;

/**
 * Reads the options: defaults, then `<config-dir>/slicer.json` if present, then the environment,
 * then the command line. The config dir itself comes from the last two only. A token file is read
 * here, once: `rest_token` then holds its token.
 */
export function loadOptions(argv: readonly string[], env: Env): SlicerOptions {
  const defaults = folderDefaults(env);
  const base = parseConfig(OPTIONS, { argv, env, defaults });
  const file = path.join(base.config_dir, SETTINGS_FILE);
  if (!existsSync(file)) return withTokenFile(base);
  let values: unknown;
  try {
    values = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw configError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return withTokenFile(parseConfig(OPTIONS, { argv, env, defaults, file: { name: file, values } }));
}

const GROUP_READ = 0o040;

function modeOf(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/**
 * The token of `--rest-token-file` (common/token-file.ts: one line, not open to others), created
 * first with --rest-token-create when missing. A token given both ways stops the start.
 */
function withTokenFile(options: SlicerOptions): SlicerOptions {
  const file = options.rest_token_file;
  if (file === '') {
    if (options.rest_token_create) throw configError('--rest-token-create needs --rest-token-file: the file to create');
    return options;
  }
  if (options.rest_token !== '') throw configError('--rest-token and --rest-token-file both give a token: use one of them');
  const label = '--rest-token-file';
  return { ...options, rest_token: options.rest_token_create ? ensureTokenFile(file, label) : readTokenFile(file, label) };
}

/**
 * The warning for a token file its group may read, or null. systemd's LoadCredential hands the
 * service such files (0440) in a directory only the service can enter, so those are not warned.
 */
export function tokenFileWarning(options: Pick<SlicerOptions, 'rest_token_file'>, env: Env): string | null {
  const file = options.rest_token_file;
  if (file === '') return null;
  const credentials = env.CREDENTIALS_DIRECTORY;
  if (credentials && path.resolve(file).startsWith(path.resolve(credentials) + path.sep)) return null;
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    return null;
  }
  if ((mode & GROUP_READ) === 0) return null;
  return `--rest-token-file: the group of ${file} may read the token (mode ${modeOf(mode)}); chmod 600 it unless that is meant`;
}

/** The warning for a service reachable from the network by anyone, or null. */
export function exposureWarning(options: Pick<SlicerOptions, 'rest_bind' | 'rest_token'>): string | null {
  if (isLoopback(options.rest_bind) || options.rest_token !== '') return null;
  return (
    `listening on ${options.rest_bind} without a token: anyone who can reach this address can use the slicer; ` +
    'set --rest-token-file (or --rest-token)'
  );
}
