/** Command-line parsing for printyard-slice: a small, strict parser with errors that name the option. */
import { AppError, ErrorCode } from '../../common/errors.js';

export interface SliceArgs {
  mode: 'slice';
  model: string;
  output: string;
  printer: string;
  filaments: string[];
  process: string;
  overrides: Record<string, string>;
  configDir: string | null;
  workers: number | null;
  quiet: boolean;
}

export interface ListArgs {
  mode: 'list';
  json: boolean;
  kind: 'printer' | 'filament' | 'process' | 'all';
  vendor: string | null;
  configDir: string | null;
}

export interface HelpArgs {
  mode: 'help' | 'version';
}

export type CliArgs = SliceArgs | ListArgs | HelpArgs;

export const USAGE = `Usage:
  printyard-slice MODEL -o OUT.gcode --printer ID --filament ID[,ID...] --process ID [--set key=value]...
  printyard-slice --list-profiles [--json] [--kind printer|filament|process] [--vendor NAME]

Options:
  -o, --output FILE     where to write the G-code (a .gcode.3mf for Bambu Lab printers)
  --printer ID          printer profile id
  --filament IDS        filament profile id(s), comma separated, one per extruder or AMS slot used
  --process ID          process (quality) profile id
  --set KEY=VALUE       override one setting (OrcaSlicer key names); repeatable
  --config-dir DIR      also load user profiles and imports from DIR
  --workers N           worker threads, 0 = none (default: none for small models, else one per core)
  --quiet               no progress on stderr
  --list-profiles       list the profile catalogue (--json for machine-readable output)
  -h, --help            this help
  --version             print the version`;

function bad(message: string): AppError {
  return new AppError(ErrorCode.badRequest, 400, message);
}

export function parseArgs(argv: readonly string[]): CliArgs {
  const rest: string[] = [];
  const opts = new Map<string, string[]>();
  const flags = new Set<string>();
  const valued = new Set(['-o', '--output', '--printer', '--filament', '--process', '--set', '--config-dir', '--workers', '--kind', '--vendor']);
  const known = new Set([...valued, '--list-profiles', '--json', '--quiet', '-h', '--help', '--version']);
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (!a.startsWith('-') || a === '-') {
      rest.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!known.has(name)) throw bad(`unknown option ${name}`);
    if (valued.has(name)) {
      const value = eq > 0 ? a.slice(eq + 1) : argv[++k];
      if (value === undefined) throw bad(`option ${name} needs a value`);
      const key = name === '-o' ? '--output' : name;
      opts.set(key, [...(opts.get(key) ?? []), value]);
    } else flags.add(name === '-h' ? '--help' : name);
  }
  const one = (name: string): string | null => {
    const v = opts.get(name);
    if (!v) return null;
    if (v.length > 1) throw bad(`option ${name} given more than once`);
    return v[0];
  };
  if (flags.has('--help')) return { mode: 'help' };
  if (flags.has('--version')) return { mode: 'version' };
  const configDir = one('--config-dir');
  if (flags.has('--list-profiles')) {
    const kind = one('--kind') ?? 'all';
    if (kind !== 'printer' && kind !== 'filament' && kind !== 'process' && kind !== 'all')
      throw bad(`--kind must be printer, filament, process or all, not "${kind}"`);
    if (rest.length) throw bad(`unexpected argument "${rest[0]}" with --list-profiles`);
    return { mode: 'list', json: flags.has('--json'), kind, vendor: one('--vendor'), configDir };
  }
  if (rest.length !== 1) throw bad(rest.length === 0 ? 'missing MODEL (an STL or 3MF file)' : `expected one MODEL, got ${rest.length}`);
  const required = (name: string) => {
    const v = one(name);
    if (!v) throw bad(`missing ${name}`);
    return v;
  };
  const overrides: Record<string, string> = {};
  for (const pair of opts.get('--set') ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw bad(`--set expects key=value, got "${pair}"`);
    overrides[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  const workersRaw = one('--workers');
  let workers: number | null = null;
  if (workersRaw !== null) {
    workers = Number(workersRaw);
    if (!Number.isInteger(workers) || workers < 0 || workers > 64) throw bad(`--workers must be an integer from 0 to 64, not "${workersRaw}"`);
  }
  return {
    mode: 'slice',
    model: rest[0],
    output: required('--output'),
    printer: required('--printer'),
    filaments: required('--filament')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    process: required('--process'),
    overrides,
    configDir,
    workers,
    quiet: flags.has('--quiet'),
  };
}
