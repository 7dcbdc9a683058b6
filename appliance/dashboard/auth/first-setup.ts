/**
 * First-run setup: who may create an admin while there is none. On a fresh appliance anyone may
 * (the README says to do it before the box joins a shared network). On a box that has had users,
 * a lost user store (a torn or deleted users.json, a wrong shape, every admin record bad) must not
 * reopen that door to whoever comes first: creating the admin then needs the one-time setup
 * code, which only someone who can read the box's log or data directory has.
 *
 * "Has had users" must outlive users.json itself, so it is read from any of:
 * - the marker `<data-dir>/users-existed`, written when the first admin is created and at any
 *   start that finds users but no marker (boxes set up before the marker existed);
 * - a users.json moved aside as `users.json.corrupt-*` by the JSON store;
 * - a users.json without an admin: the store never writes one on its own (setup creates an
 *   admin first and the last admin can be neither deleted nor demoted), so such a file is what
 *   is left of a damaged one.
 * Deleting every one of these takes write access to the data directory, which is local proof
 * in itself.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCode } from '../../common/errors.js';
import { writeFileAtomic } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import { SETUP_CODE_FILE, type SetupCode } from './setup-code.js';
import { USERS_STORE, type PublicUser, type UserStore } from './users.js';
import { pathExists } from '../../common/path-exists.js';

export const USERS_EXISTED_FILE = 'users-existed';
const USERS_FILE = `${USERS_STORE}.json`;

/** Why the data directory shows that this box has had users, or null when it looks fresh. */
async function traceOfUsers(dataDir: string): Promise<string | null> {
  if (await pathExists(path.join(dataDir, USERS_EXISTED_FILE))) return `${USERS_EXISTED_FILE} says so`;
  if ((await readdir(dataDir)).some((name) => name.startsWith(`${USERS_FILE}.corrupt-`))) return `an unreadable ${USERS_FILE} was moved aside`;
  if (await pathExists(path.join(dataDir, USERS_FILE))) return `${USERS_FILE} exists but holds no admin`;
  return null;
}

export class FirstSetup {
  private constructor(
    private readonly dataDir: string,
    private readonly users: UserStore,
    private readonly code: SetupCode,
    private hadUsers: boolean,
  ) {}

  /** Opens after the user store; makes (or keeps) the setup code when creating an admin needs it. */
  static async open(dataDir: string, users: UserStore, code: SetupCode, log: Logger): Promise<FirstSetup> {
    const setup = new FirstSetup(dataDir, users, code, false);
    if (users.hasAdmin()) {
      await setup.rememberUsers();
    } else {
      const trace = await traceOfUsers(dataDir);
      setup.hadUsers = trace !== null;
      if (trace === null) log.warn('no users yet: create the first admin with POST /api/auth/setup');
      else await code.issue(`this appliance has had users but has no admin now (${trace}): POST /api/auth/setup needs the setup code`);
    }
    // A code left from an account lock before the restart is of no use any more: the counts are gone.
    if (!setup.codeRequired && code.active) await code.discard();
    return setup;
  }

  /** True while there is no admin: POST /api/auth/setup creates one. */
  get needed(): boolean {
    return !this.users.hasAdmin();
  }

  /** True when creating the admin needs the setup code (the box has had users). */
  get codeRequired(): boolean {
    return this.needed && this.hadUsers;
  }

  async createAdmin(username: string, password: string, setupCode: string | undefined): Promise<PublicUser> {
    if (this.codeRequired) this.checkCode(setupCode);
    const admin = await this.users.createFirstAdmin(username, password);
    if (this.code.active) await this.code.discard();
    await this.rememberUsers();
    return admin;
  }

  private checkCode(setupCode: string | undefined): void {
    const where = `it is in the dashboard log and in the file ${SETUP_CODE_FILE} of its data directory`;
    if (setupCode === undefined) {
      throw new AppError(
        ErrorCode.forbidden,
        403,
        `this appliance has had users and lost them: creating an admin needs the one-time setup code (setup_code); ${where}`,
      );
    }
    if (!this.code.matches(setupCode)) throw new AppError(ErrorCode.forbidden, 403, `the setup code is wrong; ${where}`);
  }

  private async rememberUsers(): Promise<void> {
    this.hadUsers = true;
    const marker = path.join(this.dataDir, USERS_EXISTED_FILE);
    if (await pathExists(marker)) return;
    await writeFileAtomic(marker, `${new Date().toISOString()} this appliance has users: first-run setup needs the setup code from now on\n`);
  }
}
