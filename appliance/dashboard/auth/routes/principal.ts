/** Small pieces the auth routes share. */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { Principal, RouteContext } from '../../http/route.js';

export const AUTH_TAG = 'auth';

/** The principal of a route that is not public (the router has already refused anonymous calls). */
export function signedIn(ctx: RouteContext<unknown>): Principal {
  if (ctx.principal === null) throw new AppError(ErrorCode.unauthorized, 401, 'authentication required');
  return ctx.principal;
}
