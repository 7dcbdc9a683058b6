/**
 * Session tokens ended by logout, in `<data-dir>/revoked-tokens.json`: each `jti` with the token's
 * own expiry. An entry is only needed until then (an expired token fails on its own), so expired
 * entries are pruned whenever the list is opened or grows; the file stays as small as the number
 * of logouts within one token lifetime.
 */
import type { JsonStore, JsonStores } from '../../common/json-store.js';

export const REVOCATIONS_STORE = 'revoked-tokens';

interface RevocationsFile {
  /** jti → expiry of the token, seconds since the epoch. */
  revoked: Record<string, number>;
}

function checkRevocationsFile(data: unknown): string | null {
  const revoked = (data as Partial<RevocationsFile> | null)?.revoked;
  if (typeof revoked !== 'object' || revoked === null || Array.isArray(revoked)) return 'expected an object with a "revoked" map';
  const bad = Object.entries(revoked).find(([, exp]) => typeof exp !== 'number');
  return bad ? `the expiry of ${bad[0]} is not a number` : null;
}

export class RevocationList {
  private constructor(
    private readonly store: JsonStore<RevocationsFile>,
    private readonly now: () => number,
  ) {}

  static async open(stores: JsonStores, now: () => number = Date.now): Promise<RevocationList> {
    const list = new RevocationList(await stores.open<RevocationsFile>(REVOCATIONS_STORE, { revoked: {} }, checkRevocationsFile), now);
    if (list.prune()) await list.store.write();
    return list;
  }

  has(jti: string): boolean {
    return Object.hasOwn(this.store.data.revoked, jti);
  }

  get size(): number {
    return Object.keys(this.store.data.revoked).length;
  }

  /** Revokes the token until `exp` (seconds since the epoch); durable once resolved. */
  async revoke(jti: string, exp: number): Promise<void> {
    this.prune();
    this.store.data.revoked[jti] = exp;
    await this.store.write();
  }

  /** Drops entries of tokens that have expired; true when any were dropped. */
  private prune(): boolean {
    const nowS = Math.floor(this.now() / 1000);
    const revoked = this.store.data.revoked;
    let dropped = false;
    for (const [jti, exp] of Object.entries(revoked)) {
      if (exp < nowS) {
        delete revoked[jti];
        dropped = true;
      }
    }
    return dropped;
  }
}
