/**
 * The one error type of Printyard. Every layer throws it; only the HTTP layer (or the CLI) turns
 * it into the response shape of its API, so the code and status travel with the error.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;

  constructor(code: string, status: number, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/** Error codes shared by the engine, the slicer service, the CLI and the dashboard. */
export const ErrorCode = {
  badRequest: 'ERR_BAD_REQUEST',
  unauthorized: 'ERR_UNAUTHORIZED',
  profileNotFound: 'ERR_PROFILE_NOT_FOUND',
  unsupportedModel: 'ERR_UNSUPPORTED_MODEL',
  badModel: 'ERR_BAD_MODEL',
  modelOutsideBed: 'ERR_MODEL_OUTSIDE_BED',
  invalidSetting: 'ERR_INVALID_SETTING',
  unknownSetting: 'ERR_UNKNOWN_SETTING',
  sliceFailed: 'ERR_SLICE_FAILED',
  cancelled: 'ERR_CANCELLED',
  tooManyJobs: 'ERR_TOO_MANY_JOBS',
  payloadTooLarge: 'ERR_PAYLOAD_TOO_LARGE',
  jobNotFound: 'ERR_JOB_NOT_FOUND',
  insufficientStorage: 'ERR_INSUFFICIENT_STORAGE',
  internal: 'ERR_INTERNAL',
  // The dashboard's codes (its body shape adds `details` for validation errors).
  validation: 'ERR_VALIDATION',
  forbidden: 'ERR_FORBIDDEN',
  notFound: 'ERR_NOT_FOUND',
  conflict: 'ERR_CONFLICT',
  rateLimited: 'ERR_RATE_LIMITED',
  unavailable: 'ERR_UNAVAILABLE',
} as const;

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** Wraps anything thrown into an AppError, keeping AppErrors as they are. */
export function toAppError(err: unknown, fallbackCode: string = ErrorCode.internal): AppError {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new AppError(fallbackCode, 500, message);
}
