/**
 * The one-time setup code: proof that whoever gives it can read the dashboard's log or its data
 * directory, i.e. is the box's owner and not merely someone on its network. It is made when such
 * proof is needed — creating an admin after the user store was lost, logging in to an account
 * slowed by failures from many addresses — written to the log and to `<data-dir>/setup-code`
 * (mode 0600), and is gone once used. A code made before a restart stays valid after it, so
 * the owner can read it, restart, and still use it.
 *
 * 20 symbols of Crockford's base32 (100 bits), shown in groups of five; case, spaces and hyphens
 * do not matter when it is typed back.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { chmod, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';

export const SETUP_CODE_FILE = 'setup-code';
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SYMBOLS = 20;
const GROUP = 5;
const OWNER_ONLY = 0o600;

/** The code as stored and compared: upper case, without separators. */
function canonical(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

function isCode(text: string): boolean {
  return text.length === SYMBOLS && [...text].every((c) => ALPHABET.includes(c));
}

function newCode(): string {
  return Array.from({ length: SYMBOLS }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

function grouped(code: string): string {
  const groups: string[] = [];
  for (let at = 0; at < code.length; at += GROUP) groups.push(code.slice(at, at + GROUP));
  return groups.join('-');
}

export class SetupCode {
  private constructor(
    private readonly file: string,
    private readonly log: Logger,
    private code: string | null,
  ) {}

  /** Picks up a code left by an earlier run (a malformed file counts as none). */
  static async open(dataDir: string, log: Logger): Promise<SetupCode> {
    const file = path.join(dataDir, SETUP_CODE_FILE);
    let code: string | null = null;
    try {
      const text = canonical(await readFile(file, 'utf8'));
      code = isCode(text) ? text : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return new SetupCode(file, log, code);
  }

  get active(): boolean {
    return this.code !== null;
  }

  /** Makes a code unless one is waiting to be used, and tells the owner where it is and why. */
  async issue(why: string): Promise<void> {
    if (this.code === null) {
      this.code = newCode();
      await writeFileAtomic(this.file, `${grouped(this.code)}\n`);
      await chmod(this.file, OWNER_ONLY);
    }
    this.log.warn(`${why}: one-time setup code ${grouped(this.code)} (also in ${this.file})`);
  }

  /** True when `text` is the waiting code; comparing takes the same time wherever they differ. */
  matches(text: string | undefined): boolean {
    if (this.code === null || text === undefined) return false;
    const given = Buffer.from(canonical(text));
    const wanted = Buffer.from(this.code);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }

  /** Forgets the code (used, or no longer needed); its file goes too. */
  async discard(): Promise<void> {
    this.code = null;
    await rm(this.file, { force: true });
  }
}
