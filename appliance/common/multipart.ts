/**
 * Reads a multipart/form-data upload: text fields into memory, file parts streamed to temporary
 * files in a folder the caller owns. Sizes are limited while the bytes arrive (a declared
 * Content-Length over the limit is refused before anything is stored), so a large upload never
 * fills memory or the disk. hyper-express's own body limit answers an empty 413 before the
 * handler runs, so upload routes set theirs to UNLIMITED_BODY and leave the limit to this reader,
 * which answers with the error shape.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartField, MultipartFile, Request } from 'hyper-express';
import { AppError, ErrorCode } from './errors.js';

export interface UploadLimits {
  /** Largest accepted file part, in bytes. */
  maxFileBytes: number;
  /** Largest accepted text field, in bytes. */
  maxFieldBytes: number;
  maxFiles: number;
  maxFields: number;
}

export interface UploadedFile {
  field: string;
  /** File name as the client sent it (may be empty). */
  fileName: string;
  mimeType: string;
  /** Where the bytes were stored. */
  path: string;
  size: number;
}

export interface MultipartForm {
  fields: Map<string, string>;
  files: Map<string, UploadedFile>;
}

/** Route option for upload routes: hyper-express lets any size through to the reader. */
export const UNLIMITED_BODY = { max_body_length: Number.MAX_SAFE_INTEGER };

/** Room for part headers and boundaries on top of the content limits. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

function badRequest(message: string): AppError {
  return new AppError(ErrorCode.badRequest, 400, message);
}

export function tooLarge(limitBytes: number): AppError {
  const mb = limitBytes / (1024 * 1024);
  return new AppError(ErrorCode.payloadTooLarge, 413, `the upload is larger than the limit of ${Number.isInteger(mb) ? mb : mb.toFixed(2)} MB`);
}

/** Largest whole body the limits allow. */
function maxBodyBytes(limits: UploadLimits): number {
  return limits.maxFiles * limits.maxFileBytes + limits.maxFields * limits.maxFieldBytes + FORM_OVERHEAD_BYTES;
}

const LIMIT_ERRORS: Record<string, string> = {
  PARTS_LIMIT_REACHED: 'the form has too many parts',
  FILES_LIMIT_REACHED: 'the form has too many files',
  FIELDS_LIMIT_REACHED: 'the form has too many fields',
};

/**
 * Parses the body. File parts are written to `dir` (which must exist); on any error the files
 * written so far are removed. `fileFields` names the parts that may be files; a file in another
 * part, or text in a file part, is a 400 naming the part.
 */
export async function readMultipart(request: Request, dir: string, limits: UploadLimits, fileFields: readonly string[]): Promise<MultipartForm> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw badRequest('expected a multipart/form-data body');
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBodyBytes(limits)) throw tooLarge(limits.maxFileBytes);

  const form: MultipartForm = { fields: new Map(), files: new Map() };
  // The part handler never rejects: hyper-express awaits it inside a listener of its own, where a
  // rejection (a client that goes away mid-file) would be unhandled and end the process. The first
  // failure is kept, the rest of the body is drained, and the failure is thrown afterwards.
  let failure: unknown = null;
  const checkName = (name: string): void => {
    if (form.fields.has(name) || form.files.has(name)) throw badRequest(`field "${name}" is given more than once`);
  };
  const readFilePart = async (field: MultipartField, file: MultipartFile): Promise<void> => {
    const name = field.name;
    checkName(name);
    if (!fileFields.includes(name)) throw badRequest(`field "${name}" must be text, not a file`);
    const target = path.join(dir, `upload-${randomBytes(8).toString('hex')}`);
    const entry: UploadedFile = { field: name, fileName: file.name ?? '', mimeType: field.mime_type, path: target, size: 0 };
    form.files.set(name, entry);
    let truncated = false;
    file.stream.once('limit', () => { truncated = true; });
    const out = createWriteStream(target);
    await pipeline(file.stream, out);
    entry.size = out.bytesWritten;
    if (truncated) throw tooLarge(limits.maxFileBytes);
  };
  const readTextPart = (field: MultipartField): void => {
    const name = field.name;
    checkName(name);
    if (fileFields.includes(name)) throw badRequest(`field "${name}" must be a file upload`);
    if (field.truncated?.value) throw badRequest(`field "${name}" is longer than ${limits.maxFieldBytes} bytes`);
    form.fields.set(name, field.value ?? '');
  };
  try {
    await request.multipart({
      // Browsers (and fetch's FormData) send a file name's UTF-8 bytes as they are; busboy reads latin1 by default.
      defParamCharset: 'utf8',
      // busboy flags a part as soon as it reaches its limit, so one byte more tells "at" from "over".
      limits: { fileSize: limits.maxFileBytes + 1, fieldSize: limits.maxFieldBytes + 1, files: limits.maxFiles, fields: limits.maxFields },
    }, (field) => {
      if (failure !== null) return undefined;
      // Text parts are handled synchronously, without a promise: hyper-express makes the next part
      // wait for a pending handler's promise, and when the whole body is already buffered busboy
      // finishes the form meanwhile, so a file part after text parts was reported before its bytes
      // were written (an upload of size 0).
      const file = field.file;
      if (!file) {
        try {
          readTextPart(field);
        } catch (err) {
          failure = err;
        }
        return undefined;
      }
      return readFilePart(field, file).catch((err: unknown) => { failure = err; });
    });
    if (failure !== null) throw failure;
    // hyper-express ends the parse quietly when the client goes away mid-upload.
    if (!request.received) throw badRequest('the upload ended before the whole body arrived');
  } catch (err) {
    await discardUploads(form);
    if (typeof err === 'string' && LIMIT_ERRORS[err]) throw badRequest(LIMIT_ERRORS[err]);
    if (err instanceof AppError) throw err;
    throw badRequest(`the multipart body cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return form;
}

/** Removes the files of a form (after a failure, or once they have been moved or used). */
export async function discardUploads(form: MultipartForm): Promise<void> {
  await Promise.all([...form.files.values()].map((f) => rm(f.path, { force: true })));
}
