/**
 * The options of printyard-slicer: command line, PRINTYARD_SLICER_* environment variables, and
 * `<config-dir>/slicer.json`. Defaults follow the contract (port 8765 on loopback, no token) and
 * the XDG base directories for the configuration and the job files.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_ERROR, parseConfig, type ConfigSchema, type ConfigValues } from '../../common/config.js';
import { AppError } from '../../common/errors.js';
import { isLoopback } from '../../common/http-server.js';
import { LOG_LEVELS } from '../../common/logger.js';

export const ENV_PREFIX = 'PRINTYARD_SLICER_';
export const SETTINGS_FILE = 'slicer.json';

type Env = Readonly<Record<string, string | undefined>>;

function xdgDir(env: Env, variable: string, fallback: string): string {
  const set = env[variable];
  return set && path.isAbsolute(set) ? set : path.join(env.HOME || os.homedir(), fallback);
}

export const OPTIONS = {
  rest_port: { type: 'integer', default: 8765, min: 0, max: 65535, help: 'TCP port of the HTTP server (0 picks a free one)' },
  rest_bind: { type: 'string', default: '127.0.0.1', help: 'address to listen on; the default accepts local connections only' },
  rest_token: { type: 'string', default: '', secret: true, help: 'bearer token required on every call but health and version; empty means none' },
  rest_token_file: { type: 'string', default: '', help: 'file holding the bearer token, read once at start (keeps it out of ps); not with --rest-token' },
  config_dir: {
    type: 'string', inFile: false,
    default: (env: Env) => path.join(xdgDir(env, 'XDG_CONFIG_HOME', '.config'), 'printyard-slicer'),
    help: 'profiles/, import/, printers.json and slicer.json live here',
  },
  jobs_dir: {
    type: 'string',
    default: (env: Env) => path.join(xdgDir(env, 'XDG_CACHE_HOME', '.cache'), 'printyard-slicer', 'jobs'),
    help: 'where uploads, G-code and previews of jobs are kept',
  },
  workers: { type: 'integer', default: 1, min: 1, max: 64, help: 'slice jobs running at the same time, each in a process of its own' },
  queue_size: { type: 'integer', default: 4, min: 0, max: 1000, help: 'jobs waiting for a free worker; beyond that 429' },
  engine_threads: { type: 'integer', default: null, nullable: true, min: 0, max: 64, help: 'geometry threads per job (0 = none; auto: by model size and cores)' },
  max_upload_mb: { type: 'number', default: 100, above: 0, max: 16384, help: 'largest model upload in MB; beyond that 413' },
  max_output_mb: { type: 'number', default: 1024, above: 0, max: 1048576, help: 'largest G-code file of a job in MB; a job that would write more fails' },
  min_free_mb: { type: 'integer', default: 256, min: 0, max: 1048576, help: 'free space in MB kept on the disk of the jobs dir; below it jobs are refused (507) or fail' },
  max_inflate_mb: { type: 'number', default: 512, above: 0, max: 4096, help: 'most the parts of a 3MF may inflate to, in MB; beyond that 413' },
  max_inflate_ratio: { type: 'integer', default: 100, min: 2, max: 1100, help: 'most a 3MF may inflate to per byte of its size (past 1 MB); beyond that 413' },
  job_timeout_s: { type: 'integer', default: 1800, min: 1, help: 'a running job is cancelled after this many seconds' },
  keep_jobs: { type: 'integer', default: 20, min: 1, help: 'finished jobs (and their files) kept' },
  keep_hours: { type: 'number', default: 24, above: 0, help: 'finished jobs are removed this many hours after they finished' },
  shutdown_grace_s: { type: 'number', default: 30, above: 0, max: 3600, help: 'on SIGTERM, how long a running job may take before it is cancelled' },
  reload_interval_s: { type: 'number', default: 3, above: 0, max: 3600, help: 'how often the config dir is checked for changed profiles and printers' },
  keepalive_s: { type: 'number', default: 15, above: 0, max: 3600, help: 'interval of keep-alive comments on slice event streams' },
  preview_max_px: { type: 'integer', default: 1024, min: 16, max: 2048, help: 'largest width or height of POST /api/preview' },
  log_level: { type: 'enum', values: LOG_LEVELS, default: 'info', help: 'error, warn, info or debug' },
} as const satisfies ConfigSchema;

export type SlicerOptions = ConfigValues<typeof OPTIONS>;

function configError(message: string): AppError {
  return new AppError(CONFIG_ERROR, 400, message);
}

/**
 * Reads the options: defaults, then `<config-dir>/slicer.json` if present, then the environment,
 * then the command line. The config dir itself comes from the last two only. A token file is read
 * here, once: `rest_token` then holds its token.
 */
export function loadOptions(argv: readonly string[], env: Env): SlicerOptions {
  const base = parseConfig(OPTIONS, { argv, env, envPrefix: ENV_PREFIX });
  const file = path.join(base.config_dir, SETTINGS_FILE);
  if (!existsSync(file)) return withTokenFile(base);
  let values: unknown;
  try {
    values = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw configError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return withTokenFile(parseConfig(OPTIONS, { argv, env, envPrefix: ENV_PREFIX, file: { name: file, values } }));
}

/** Permission bits that open a file to users outside its owner and group. */
const OTHERS_BITS = 0o007;
const GROUP_READ = 0o040;

function modeOf(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/**
 * The token of `--rest-token-file`, read through one descriptor (the checked file is the read
 * one). Trailing whitespace (the newline an editor or `echo` adds) is dropped. A missing, empty
 * or multi-line file, one that users other than its owner and group may open, or a token given
 * both ways stops the start.
 */
function withTokenFile(options: SlicerOptions): SlicerOptions {
  const file = options.rest_token_file;
  if (file === '') return options;
  if (options.rest_token !== '') throw configError('--rest-token and --rest-token-file both give a token: use one of them');
  let text: string;
  let mode: number;
  try {
    const fd = openSync(file, 'r');
    try {
      mode = fstatSync(fd).mode;
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw configError(`--rest-token-file: cannot read ${file}: ${reason}`);
  }
  if ((mode & OTHERS_BITS) !== 0) {
    throw configError(`--rest-token-file: ${file} is open to other users (mode ${modeOf(mode)}); allow its owner only (chmod 600 ${file})`);
  }
  const token = text.replace(/\s+$/, '');
  if (token === '') throw configError(`--rest-token-file: ${file} is empty`);
  if (/[\x00-\x1f\x7f]/.test(token)) throw configError(`--rest-token-file: ${file} must hold the token on one line`);
  return { ...options, rest_token: token };
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
  return `listening on ${options.rest_bind} without a token: anyone who can reach this address can use the slicer; set --rest-token-file (or --rest-token)`;
}
