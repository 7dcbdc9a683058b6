/**
 * The dashboard's users, in `<data-dir>/users.json`. Usernames are unique without regard to case;
 * the password is kept only as a scrypt hash, which never leaves this module (`toPublic`).
 * There is always at least one admin once the first one exists: the last admin can be neither
 * deleted nor demoted, so the appliance cannot lock its owner out. A file with some bad records
 * keeps its good ones (the file as it was is moved aside and reported by the JSON store).
 */
import { randomUUID } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore, JsonStores, Salvage } from '../../common/json-store.js';
import { ROLES, type Role } from '../http/route.js';
import { hashPassword, isPasswordHash, type PasswordHash } from './password.js';
import { checkNewPassword } from './password-policy.js';

export const USERS_STORE = 'users';
export const USERNAME_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
const USERNAME = new RegExp(USERNAME_PATTERN);

export interface UserRecord {
  id: string;
  username: string;
  role: Role;
  password: PasswordHash;
  created_at: string;
  updated_at: string;
}

export type PublicUser = Omit<UserRecord, 'password'>;

export interface NewUser {
  username: string;
  password: string;
  role: Role;
}

export interface UserChanges {
  role?: Role;
  password?: string;
}

interface UsersFile {
  users: UserRecord[];
}

function isUserRecord(value: unknown): value is UserRecord {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  return (
    typeof u.id === 'string' &&
    typeof u.username === 'string' &&
    ROLES.includes(u.role as Role) &&
    isPasswordHash(u.password) &&
    typeof u.created_at === 'string' &&
    typeof u.updated_at === 'string'
  );
}

/** The records that can be kept, in order (a repeated id or username is not), and the index of the first that cannot. */
function usableRecords(users: readonly unknown[]): { kept: UserRecord[]; firstBad: number } {
  const ids = new Set<string>();
  const names = new Set<string>();
  const kept: UserRecord[] = [];
  let firstBad = -1;
  users.forEach((u, i) => {
    if (isUserRecord(u) && !ids.has(u.id) && !names.has(u.username.toLowerCase())) {
      ids.add(u.id);
      names.add(u.username.toLowerCase());
      kept.push(u);
    } else if (firstBad === -1) firstBad = i;
  });
  return { kept, firstBad };
}

function checkUsersFile(data: unknown): string | null {
  const users = (data as Partial<UsersFile> | null)?.users;
  if (!Array.isArray(users)) return 'expected an object with a "users" array';
  const { firstBad } = usableRecords(users);
  return firstBad === -1 ? null : `users[${firstBad}] is not a valid user record or repeats an id or username`;
}

/** What a users file with some bad records keeps: the good ones. */
const salvageUsers: Salvage<UsersFile> = (data) => {
  const users = (data as Partial<UsersFile> | null)?.users;
  if (!Array.isArray(users)) return null;
  const { kept } = usableRecords(users);
  return { data: { users: kept }, kept: `${kept.length} of ${users.length} users` };
};

export function toPublic(user: UserRecord): PublicUser {
  const { password: _hash, ...rest } = user;
  return rest;
}

export function checkUsername(username: string): void {
  if (!USERNAME.test(username)) {
    throw new AppError(ErrorCode.validation, 400, 'the username must be 1 to 64 characters: letters, digits, ".", "_" or "-"');
  }
}

function notFound(id: string): AppError {
  return new AppError(ErrorCode.notFound, 404, `no user with id "${id}"`);
}

export class UserStore {
  private constructor(private readonly store: JsonStore<UsersFile>) {}

  static async open(stores: JsonStores): Promise<UserStore> {
    return new UserStore(await stores.open<UsersFile>(USERS_STORE, { users: [] }, checkUsersFile, salvageUsers));
  }

  count(): number {
    return this.store.data.users.length;
  }

  /** False on a fresh appliance, and after a damaged users file lost every admin record. */
  hasAdmin(): boolean {
    return this.store.data.users.some((u) => u.role === 'admin');
  }

  list(): PublicUser[] {
    return this.store.data.users.map(toPublic);
  }

  get(id: string): UserRecord | undefined {
    return this.store.data.users.find((u) => u.id === id);
  }

  /** Case-insensitive, as usernames are unique that way. */
  findByUsername(username: string): UserRecord | undefined {
    const wanted = username.toLowerCase();
    return this.store.data.users.find((u) => u.username.toLowerCase() === wanted);
  }

  /**
   * The first admin: refused (409) once an admin exists. Who may call it (anyone on a fresh
   * appliance, only with the setup code after a loss) is first-setup.ts's business.
   */
  async createFirstAdmin(username: string, password: string): Promise<PublicUser> {
    return this.add({ username, password, role: 'admin' }, true);
  }

  async create(input: NewUser): Promise<PublicUser> {
    return this.add(input, false);
  }

  async update(id: string, changes: UserChanges): Promise<PublicUser> {
    if (changes.role === undefined && changes.password === undefined) {
      throw new AppError(ErrorCode.validation, 400, 'nothing to change: give a role, a password or both');
    }
    const before = this.get(id);
    if (before === undefined) throw notFound(id);
    if (changes.password !== undefined) checkNewPassword(changes.password, before.username);
    const password = changes.password === undefined ? undefined : await hashPassword(changes.password);
    // Re-read after the hashing: the user may have been deleted or demoted meanwhile.
    const user = this.get(id);
    if (user === undefined) throw notFound(id);
    if (changes.role !== undefined && changes.role !== 'admin' && user.role === 'admin') this.refuseLastAdmin(user, 'demote');
    if (changes.role !== undefined) user.role = changes.role;
    if (password !== undefined) user.password = password;
    user.updated_at = new Date().toISOString();
    await this.store.write();
    return toPublic(user);
  }

  async remove(id: string): Promise<void> {
    const user = this.get(id);
    if (user === undefined) throw notFound(id);
    if (user.role === 'admin') this.refuseLastAdmin(user, 'delete');
    this.store.data.users = this.store.data.users.filter((u) => u !== user);
    await this.store.write();
  }

  private refuseLastAdmin(user: UserRecord, action: string): void {
    const admins = this.store.data.users.filter((u) => u.role === 'admin');
    if (admins.length === 1 && admins[0] === user) {
      throw new AppError(ErrorCode.conflict, 409, `cannot ${action} ${user.username}: the appliance needs at least one admin`);
    }
  }

  private async add(input: NewUser, onlyFirst: boolean): Promise<PublicUser> {
    checkUsername(input.username);
    checkNewPassword(input.password, input.username);
    const refusal = (): AppError | null => {
      if (onlyFirst && this.hasAdmin()) return new AppError(ErrorCode.conflict, 409, 'setup is already done: log in as an admin to add users');
      if (this.findByUsername(input.username)) return new AppError(ErrorCode.conflict, 409, `the username "${input.username}" is taken`);
      return null;
    };
    const early = refusal();
    if (early) throw early;
    const password = await hashPassword(input.password);
    // Checked again: another request may have created a user while this one was hashing.
    const late = refusal();
    if (late) throw late;
    const now = new Date().toISOString();
    const user: UserRecord = { id: randomUUID(), username: input.username, role: input.role, password, created_at: now, updated_at: now };
    this.store.data.users.push(user);
    await this.store.write();
    return toPublic(user);
  }
}
