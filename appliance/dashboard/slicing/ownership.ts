/**
 * Who a slice belongs to, and what others may see of it. Every slice records the principal that
 * started it (a user or an API key); a print user may cancel only their own upstream jobs, an
 * admin any. Server file paths (the slicer service's `gcode_path`, its job folders) are shown to
 * admins only: everyone else downloads through the dashboard's URLs, which is all a client needs.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { Principal } from '../http/route.js';

export interface JobOwner {
  kind: Principal['kind'];
  /** User id, or API key id. */
  id: string;
  /** Username, or API key name, as it was when the job started. */
  name: string;
}

/** The owner of what a request starts; every slicing route needs credentials, so there is one. */
export function ownerOf(principal: Principal | null): JobOwner {
  if (principal === null) throw new AppError(ErrorCode.unauthorized, 401, 'authentication required: send a session token or an API key');
  return { kind: principal.kind, id: principal.id, name: principal.name };
}

export function isAdmin(principal: Principal | null): boolean {
  return principal?.role === 'admin';
}

/** Throws 403 unless `principal` is an admin or started the job (`owner` null: not started here). */
export function assertMayCancel(principal: Principal | null, owner: JobOwner | null, what: string): void {
  const asking = ownerOf(principal);
  if (isAdmin(principal) || (owner !== null && owner.kind === asking.kind && owner.id === asking.id)) return;
  const whose = owner === null ? 'was not started through this dashboard' : 'was started by someone else';
  throw new AppError(ErrorCode.forbidden, 403, `${what} ${whose}: only the one who started it, or an admin, may cancel it`);
}
