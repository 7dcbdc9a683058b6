/** The 413 of a request body over its limit, in words a person reads. */
import { AppError, ErrorCode } from './errors.js';

export function payloadTooLarge(limitBytes: number): AppError {
  return new AppError(ErrorCode.payloadTooLarge, 413, `the request body is larger than the limit of ${formatBytes(limitBytes)}`);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(2)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(2)} KB`;
  return `${bytes} bytes`;
}
