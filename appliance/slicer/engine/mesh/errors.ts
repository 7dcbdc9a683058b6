/** The two ways a model file can be refused, so every loader words and codes them alike. */
import { AppError, ErrorCode } from '../../../common/errors.js';

/** The bytes are not a model format we read at all. */
export function unsupportedModel(message: string): AppError {
  return new AppError(ErrorCode.unsupportedModel, 415, message);
}

/** The bytes claim to be a model format we read, but their content is broken. */
export function badModel(message: string, details?: unknown): AppError {
  return new AppError(ErrorCode.badModel, 422, message, details);
}
