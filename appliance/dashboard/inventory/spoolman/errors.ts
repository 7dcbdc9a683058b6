/**
 * Spoolman's error answers, which its clients parse (Moonraker reads `message`): 404 and 400 as
 * `{"message": "..."}`, invalid input as FastAPI's 422 `{"detail": [{type, loc, msg, input}]}`,
 * and, for our credentials, 401/403 in the `{"message"}` shape too. `spoolmanHandler` turns
 * everything a handler throws into these (a dashboard AppError keeps its status and message).
 */
import { isAppError } from '../../../common/errors.js';
import type { Logger } from '../../../common/logger.js';
import { Reply, type RouteContext } from '../../http/route.js';

export interface Detail {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
}

export class SpoolmanError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: Detail[],
  ) {
    super(message);
  }
}

export const notFound = (resource: string, id: number) => new SpoolmanError(404, `No ${resource} with ID ${id} found.`);
export const badRequest = (message: string) => new SpoolmanError(400, message);
export const unprocessable = (detail: Detail[]) => new SpoolmanError(422, detail.map((d) => d.msg).join('; '), detail);

export function spoolmanReply(err: unknown, log: Logger): Reply {
  if (err instanceof SpoolmanError) return new Reply(err.status, err.detail ? { detail: err.detail } : { message: err.message });
  if (isAppError(err) && err.status < 500) return new Reply(err.status, { message: err.message });
  log.error(`a Spoolman API request failed: ${(err as Error).stack ?? String(err)}`);
  return new Reply(500, { message: 'Internal Server Error' });
}

/** A route handler whose failures are answered in Spoolman's shapes. */
export function spoolmanHandler(log: Logger, handler: (ctx: RouteContext) => unknown): (ctx: RouteContext) => Promise<unknown> {
  return async (ctx) => {
    try {
      return await handler(ctx);
    } catch (err) {
      return spoolmanReply(err, log);
    }
  };
}

/** An integer path parameter, or FastAPI's 422 for it. */
export function intParam(ctx: RouteContext, name: string): number {
  const text = ctx.params[name] ?? '';
  if (/^-?\d{1,15}$/.test(text)) return Number(text);
  throw unprocessable([
    { type: 'int_parsing', loc: ['path', name], msg: 'Input should be a valid integer, unable to parse string as an integer', input: text },
  ]);
}
