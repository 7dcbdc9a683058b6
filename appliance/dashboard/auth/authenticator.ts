/**
 * Turns the credentials of a request into a Principal. Accepted:
 * - `Authorization: Bearer <session token>`: a JWT with a valid signature, not expired, not
 *   revoked, whose user still exists. The role is the user's current one, so a demotion or a
 *   deletion takes effect on the next request, not when the token expires.
 * - `X-API-Key: pyk_…`, or the same key as `Authorization: Bearer pyk_…` for clients that only
 *   know bearer tokens. A key acts for its owner: never above the owner's current role, and not
 *   at all once the owner is gone.
 * When both headers are present, Authorization is the one used.
 */
import { ROLES, type Authenticator, type Principal, type Role } from '../http/route.js';
import { isApiKeyText, type ApiKeyStore } from './api-keys.js';
import type { RevocationList } from './revocations.js';
import type { TokenIssuer } from './tokens.js';
import type { UserStore } from './users.js';

export const API_KEY_HEADER = 'x-api-key';
const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

export interface CredentialStores {
  users: UserStore;
  apiKeys: ApiKeyStore;
  tokens: TokenIssuer;
  revocations: RevocationList;
}

function weaker(a: Role, b: Role): Role {
  return ROLES.indexOf(a) <= ROLES.indexOf(b) ? a : b;
}

export class StoredCredentials implements Authenticator {
  constructor(private readonly stores: CredentialStores) {}

  async authenticate(headers: Readonly<Record<string, string | undefined>>): Promise<Principal | null> {
    const authorization = headers.authorization;
    if (authorization !== undefined) {
      const match = BEARER.exec(authorization);
      return match ? this.authenticateToken(match[1]) : null;
    }
    const key = headers[API_KEY_HEADER];
    return key === undefined ? null : this.apiKey(key.trim());
  }

  async authenticateToken(token: string): Promise<Principal | null> {
    const text = token.trim();
    return isApiKeyText(text) ? this.apiKey(text) : this.sessionToken(text);
  }

  private async sessionToken(token: string): Promise<Principal | null> {
    const claims = await this.stores.tokens.verify(token);
    if (claims === null || this.stores.revocations.has(claims.jti)) return null;
    const user = this.stores.users.get(claims.sub);
    if (user === undefined) return null;
    return { kind: 'user', id: user.id, name: user.username, role: user.role, token_id: claims.jti, token_exp: claims.exp };
  }

  private apiKey(key: string): Principal | null {
    const record = this.stores.apiKeys.find(key);
    if (record === undefined) return null;
    const owner = this.stores.users.get(record.owner_id);
    if (owner === undefined) return null;
    this.stores.apiKeys.touch(record);
    return { kind: 'api_key', id: record.id, name: record.name, role: weaker(record.role, owner.role) };
  }
}
