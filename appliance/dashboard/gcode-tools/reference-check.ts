/**
 * The rules the G-code reference's data file (gcode-reference.json) keeps: every entry has its
 * fields, categories and firmwares come from the fixed lists below, and no firmware has a code
 * twice (a code whose meaning differs between firmwares, like G10, is one entry per meaning).
 * The reference refuses to load a file that breaks them; scripts/check-gcode-reference.mjs runs
 * the same check for whoever edits the file.
 */

export const CATEGORIES = [
  'motion',
  'positioning',
  'homing',
  'temperature',
  'fan',
  'extrusion',
  'tool',
  'sd',
  'calibration',
  'limits',
  'settings',
  'control',
  'info',
  'display',
  'power',
  'io',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const FIRMWARES = ['marlin', 'klipper', 'reprapfirmware'] as const;
export type Firmware = (typeof FIRMWARES)[number];

export interface ReferenceParameter {
  name: string;
  description: string;
}

export interface ReferenceCommand {
  /** `G1`, `M104`, `G38.2`, `T` (any tool number), or a Klipper extended command. */
  code: string;
  name: string;
  category: Category;
  firmware: Firmware[];
  summary: string;
  parameters: ReferenceParameter[];
  example: string;
}

export interface ReferenceDocument {
  about: string;
  commands: ReferenceCommand[];
}

const CODE = /^(?:[GM]\d{1,4}(?:\.\d)?|T|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,})$/;
const EXTENDED = /^[A-Z]{2,}/;

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** What is wrong with one entry, each problem naming it. */
function entryProblems(entry: Record<string, unknown>, where: string): string[] {
  const problems: string[] = [];
  for (const field of ['code', 'name', 'summary', 'example'] as const)
    if (!isText(entry[field])) problems.push(`${where}: ${field} is missing or empty`);
  if (isText(entry.code) && !CODE.test(entry.code)) problems.push(`${where}: code "${entry.code}" is not a G/M code, T or an extended command`);
  if (!CATEGORIES.includes(entry.category as Category))
    problems.push(`${where}: category "${String(entry.category)}" is not one of ${CATEGORIES.join(', ')}`);
  const firmware = entry.firmware;
  if (!Array.isArray(firmware) || firmware.length === 0) problems.push(`${where}: firmware lists no firmware`);
  else {
    for (const f of firmware) if (!FIRMWARES.includes(f)) problems.push(`${where}: firmware "${String(f)}" is not one of ${FIRMWARES.join(', ')}`);
    if (new Set(firmware).size !== firmware.length) problems.push(`${where}: firmware lists one twice`);
    if (isText(entry.code) && EXTENDED.test(entry.code) && (firmware.length !== 1 || firmware[0] !== 'klipper')) {
      problems.push(`${where}: an extended command is Klipper's only`);
    }
  }
  if (!Array.isArray(entry.parameters)) problems.push(`${where}: parameters is not a list`);
  else {
    const names = new Set<string>();
    for (const p of entry.parameters as Record<string, unknown>[]) {
      if (!isText(p?.name) || !isText(p?.description)) problems.push(`${where}: a parameter lacks its name or description`);
      else if (names.has(p.name)) problems.push(`${where}: parameter ${p.name} is listed twice`);
      else names.add(p.name);
    }
  }
  if (isText(entry.example) && isText(entry.code)) {
    const head = entry.example.split(/\s/)[0];
    const fits = entry.code === 'T' ? /^T\d+$/.test(head) : head === entry.code;
    if (!fits) problems.push(`${where}: example "${entry.example}" does not use ${entry.code}`);
  }
  return problems;
}

/** Every problem of a reference document; empty when it is sound. */
export function checkReference(doc: unknown): string[] {
  const commands = (doc as { commands?: unknown } | null)?.commands;
  if (!isText((doc as { about?: unknown } | null)?.about))
    return ['the document has no "about" text'].concat(Array.isArray(commands) ? [] : ['no "commands" list']);
  if (!Array.isArray(commands)) return ['the document has no "commands" list'];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  commands.forEach((raw: unknown, index) => {
    if (typeof raw !== 'object' || raw === null) {
      problems.push(`entry ${index}: not an object`);
      return;
    }
    const entry = raw as Record<string, unknown>;
    const where = `entry ${index} (${String(entry.code)})`;
    problems.push(...entryProblems(entry, where));
    if (!Array.isArray(entry.firmware)) return;
    for (const f of entry.firmware) {
      const key = `${String(f)} ${String(entry.code)}`;
      const first = seen.get(key);
      if (first !== undefined) problems.push(`${where}: ${String(f)} already has ${String(entry.code)} (entry ${first})`);
      else seen.set(key, index);
    }
  });
  return problems;
}
