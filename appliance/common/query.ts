/** Query-string parameters of a request, one value each: a repeated parameter is a 400 naming it. */
import type { Request } from 'hyper-express';
import { AppError, ErrorCode } from './errors.js';

export function queryParam(request: Request, name: string): string | undefined {
  const value: unknown = request.query_parameters[name];
  if (Array.isArray(value)) throw new AppError(ErrorCode.badRequest, 400, `query parameter "${name}" is given more than once`);
  return typeof value === 'string' ? value : undefined;
}
