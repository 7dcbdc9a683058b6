/**
 * Printer bindings: the physical printers a user has tied to printer profiles, like PrusaSlicer's
 * "physical printers", kept in `<config-dir>/printers.json`:
 *
 *   { "printers": [ { "name": "X1C left", "printer_profile": "bambu-lab-x1-carbon-0.4",
 *                     "host_type": "bambu", "host_url": "192.168.1.20",
 *                     "serial": "01S00A000000000", "access_code": "12345678" } ] }
 *
 * Secrets (api_key, password, access_code) are read but never shown: the public view lists only
 * which of them are set.
 */
import { readFile } from 'node:fs/promises';
import { AppError } from '../../common/errors.js';
import { nameProblem } from '../../common/names.js';
import { isValidProfileId, slugify } from '../profiles/ids.js';

export const PRINTERS_FILE = 'printers.json';
export const ERR_BAD_PRINTERS = 'ERR_BAD_PRINTERS_FILE';

export const HOST_TYPES = [
  'octoprint',
  'prusalink',
  'prusaconnect',
  'moonraker',
  'duet',
  'repetier',
  'mks',
  'flashair',
  'astrobox',
  'bambu',
  'serial',
] as const;
export type HostType = (typeof HOST_TYPES)[number];

const SECRET_KEYS = ['api_key', 'password', 'access_code'] as const;
const TEXT_KEYS = ['id', 'name', 'printer_profile', 'host_type', 'host_url', 'user', 'serial', ...SECRET_KEYS] as const;
type TextKey = (typeof TEXT_KEYS)[number];

export interface PrinterBinding {
  id: string;
  name: string;
  printer_profile: string;
  host_type: HostType;
  host_url: string;
  user?: string;
  serial?: string;
  api_key?: string;
  password?: string;
  access_code?: string;
}

export interface PrinterView {
  id: string;
  name: string;
  printer_profile: string;
  /** Whether the catalogue has that printer profile (an import may be missing). */
  printer_profile_known: boolean;
  host_type: HostType;
  host_url: string;
  user: string | null;
  serial: string | null;
  /** Names of the secrets stored for this printer, never their values. */
  secrets: string[];
}

function bad(file: string, message: string): AppError {
  return new AppError(ERR_BAD_PRINTERS, 500, `${file}: ${message}`);
}

function parseBinding(raw: unknown, where: string, file: string): PrinterBinding {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad(file, `${where} must be an object`);
  const entry = raw as Record<string, unknown>;
  const text: Partial<Record<TextKey, string>> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!(TEXT_KEYS as readonly string[]).includes(key)) throw bad(file, `${where}: unknown key "${key}"`);
    if (typeof value !== 'string') throw bad(file, `${where}.${key} must be a string`);
    text[key as TextKey] = value.trim();
  }
  for (const key of ['name', 'printer_profile', 'host_type', 'host_url'] as const) {
    if (!text[key]) throw bad(file, `${where}.${key} is required`);
  }
  const problem = nameProblem(entry.name as string);
  if (problem !== null) throw bad(file, `${where}.name ${problem}`);
  const hostType = text.host_type as string;
  if (!(HOST_TYPES as readonly string[]).includes(hostType)) {
    throw bad(file, `${where}.host_type must be one of ${HOST_TYPES.join(', ')}, not "${hostType}"`);
  }
  const id = text.id || slugify(text.name as string);
  if (!isValidProfileId(id)) throw bad(file, `${where}.id "${id}" may use only a-z, 0-9, ".", "_" and "-"`);
  return { ...text, id, host_type: hostType as HostType } as PrinterBinding;
}

export function parsePrinters(json: unknown, file: string): PrinterBinding[] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw bad(file, 'expected an object with a "printers" list');
  const extra = Object.keys(json).filter((k) => k !== 'printers');
  if (extra.length > 0) throw bad(file, `unknown key "${extra[0]}"`);
  const list = (json as { printers?: unknown }).printers ?? [];
  if (!Array.isArray(list)) throw bad(file, '"printers" must be a list');
  const printers = list.map((raw, k) => parseBinding(raw, `printers[${k}]`, file));
  const seen = new Set<string>();
  for (const p of printers) {
    if (seen.has(p.id)) throw bad(file, `two printers have the id "${p.id}"`);
    seen.add(p.id);
  }
  return printers;
}

/** The bindings of `file`; none when it does not exist. */
export async function loadPrinters(file: string): Promise<PrinterBinding[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw bad(file, (err as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw bad(file, `not valid JSON: ${(err as Error).message}`);
  }
  return parsePrinters(json, file);
}

export function printerView(p: PrinterBinding, profileKnown: boolean): PrinterView {
  return {
    id: p.id,
    name: p.name,
    printer_profile: p.printer_profile,
    printer_profile_known: profileKnown,
    host_type: p.host_type,
    host_url: p.host_url,
    user: p.user ?? null,
    serial: p.serial ?? null,
    secrets: SECRET_KEYS.filter((k) => p[k] !== undefined && p[k] !== ''),
  };
}
