/**
 * Who may use `/api/v1`. Spoolman itself has no authentication, and Moonraker's and OctoPrint's
 * Spoolman integrations send no credentials (Moonraker calls `GET /api/v1/spool/<id>`,
 * `PUT /api/v1/spool/<id>/use` and opens the WebSocket `/api/v1/spool` with plain requests).
 * So: a request with credentials (bearer token or API key, as everywhere) gets its role; one
 * without gets the print level when the setting `inventory.spoolman_open_lan` is on and it comes
 * from a loopback or private address (RFC 1918, link-local, IPv6 ULA); otherwise 401. Deleting
 * always needs an admin's credentials.
 */
import { roleSatisfies } from '../../http/router.js';
import type { Authenticator, Level, Role } from '../../http/route.js';
import type { Settings } from '../../settings/settings.js';
import { SpoolmanError } from './errors.js';

export function isLocalAddress(ip: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(ip);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  const lower = ip.toLowerCase();
  return lower === '::1' || lower === '0:0:0:0:0:0:0:1' || /^f[cd][0-9a-f]{0,2}:/.test(lower) || /^fe[89ab][0-9a-f]?:/.test(lower);
}

export class SpoolmanAccess {
  constructor(
    private readonly auth: Authenticator,
    private readonly settings: Settings,
  ) {}

  /** The role a request acts with, or null when it may not use the API at all. */
  async roleOf(headers: Readonly<Record<string, string | undefined>>, ip: string): Promise<Role | null> {
    const principal = await this.auth.authenticate(headers);
    if (principal) return principal.role;
    return this.settings.current.inventory.spoolman_open_lan && isLocalAddress(ip) ? 'print' : null;
  }

  async require(headers: Readonly<Record<string, string | undefined>>, ip: string, level: Level): Promise<void> {
    const role = await this.roleOf(headers, ip);
    if (role === null)
      throw new SpoolmanError(401, 'Authentication required: send a bearer token or an X-API-Key, or enable inventory.spoolman_open_lan');
    if (!roleSatisfies(role, level)) throw new SpoolmanError(403, `This needs the ${level} level; the request has ${role}`);
  }
}
