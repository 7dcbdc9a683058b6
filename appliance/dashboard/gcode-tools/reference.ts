/**
 * The searchable G-code reference: the entries of gcode-reference.json, checked when loaded, with
 * a lookup by code and a search by words, category and firmware. Codes are matched the way
 * firmware reads them: case-insensitive, leading zeros dropped (`g01` is G1), any `T<n>` is T.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, ErrorCode } from '../../common/errors.js';
import { repoRoot } from '../../common/paths.js';
import { type Category, checkReference, type Firmware, type ReferenceCommand, type ReferenceDocument } from './reference-check.js';

export const REFERENCE_FILE = path.join('appliance', 'dashboard', 'gcode-tools', 'gcode-reference.json');

export interface ReferenceQuery {
  q?: string;
  category?: Category;
  firmware?: Firmware;
}

/** Better matches first: the code itself, a code starting so, the name, then anything else. */
const Rank = { code: 0, codePrefix: 1, name: 2, text: 3 } as const;

/** `g01` → `G1`, `t3` → `T`, `set_velocity_limit` → `SET_VELOCITY_LIMIT`. */
export function normalizeCode(text: string): string {
  const upper = text.trim().toUpperCase();
  const numbered = /^([GM])0*(\d+(?:\.\d+)?)$/.exec(upper);
  if (numbered) return numbered[1] + numbered[2];
  if (/^T\d+$/.test(upper)) return 'T';
  return upper;
}

export class GcodeReference {
  private constructor(
    readonly about: string,
    readonly commands: readonly ReferenceCommand[],
  ) {}

  static load(file = path.join(repoRoot(), REFERENCE_FILE)): GcodeReference {
    const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const problems = checkReference(doc);
    if (problems.length > 0)
      throw new AppError(ErrorCode.internal, 500, `the G-code reference is invalid: ${problems.slice(0, 5).join('; ')}`, { problems });
    const { about, commands } = doc as ReferenceDocument;
    return new GcodeReference(about, commands);
  }

  /** Every entry for a code (one per meaning), optionally only those a firmware supports. */
  lookup(code: string, firmware?: Firmware): ReferenceCommand[] {
    const wanted = normalizeCode(code);
    return this.commands.filter((c) => c.code === wanted && (firmware === undefined || c.firmware.includes(firmware)));
  }

  search(query: ReferenceQuery): ReferenceCommand[] {
    const words = (query.q ?? '').trim().toLowerCase();
    const ranked: { command: ReferenceCommand; rank: number; order: number }[] = [];
    this.commands.forEach((command, order) => {
      if (query.category !== undefined && command.category !== query.category) return;
      if (query.firmware !== undefined && !command.firmware.includes(query.firmware)) return;
      const rank = words === '' ? Rank.text : rankOf(command, words);
      if (rank !== null) ranked.push({ command, rank, order });
    });
    return ranked.sort((a, b) => a.rank - b.rank || a.order - b.order).map((r) => r.command);
  }
}

/** How well a command matches the words, or null; every word must appear somewhere. */
function rankOf(command: ReferenceCommand, words: string): number | null {
  const code = command.code.toLowerCase();
  const asCode = normalizeCode(words).toLowerCase();
  if (code === asCode) return Rank.code;
  if (code.startsWith(asCode)) return Rank.codePrefix;
  const name = command.name.toLowerCase();
  const parts = words.split(/\s+/);
  if (parts.every((w) => name.includes(w))) return Rank.name;
  const text = [name, command.summary, ...command.parameters.map((p) => `${p.name} ${p.description}`)].join(' ').toLowerCase();
  return parts.every((w) => text.includes(w)) ? Rank.text : null;
}
