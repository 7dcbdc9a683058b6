/**
 * Reads a multipart/form-data upload: text fields into memory, file parts streamed to temporary
 * files in a folder the caller owns. Sizes are limited while the bytes arrive: a declared
 * Content-Length over the limit is refused before anything is read, and a body that passes it
 * while arriving (chunked, or longer than declared parts allow) is refused at that byte, so a large
 * upload never fills memory or the disk and is not read to its end. hyper-express's own body limit
 * answers an empty 413 before the handler runs, so upload routes set theirs to UNLIMITED_BODY and
 * leave the limit to this reader, which answers with the error shape.
 *
 * busboy is driven directly rather than through hyper-express's `Request.multipart`: that wrapper
 * listens for busboy's first error only, and destroying the parser then emits a second one
 * ("Unexpected end of form") that nobody listens to, which ended the process on a malformed part
 * header. Here every stream involved keeps an error listener for its whole life.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import busboy, { type Busboy, type FileInfo, type FieldInfo } from 'busboy';
import type { Request } from 'hyper-express';
import { asStorageError } from './disk-space.js';
import { AppError, ErrorCode } from './errors.js';

export interface UploadLimits {
  /** Largest accepted file part, in bytes. */
  maxFileBytes: number;
  /** Largest accepted text field, in bytes; also what all text fields together may take. */
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

function formatMb(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(2);
}

function tooLarge(limitBytes: number): AppError {
  return new AppError(ErrorCode.payloadTooLarge, 413, `the upload is larger than the limit of ${formatMb(limitBytes)} MB`);
}

/** Largest whole body the limits allow: the files, the text fields together, part headers. */
export function maxBodyBytes(limits: UploadLimits): number {
  return limits.maxFiles * limits.maxFileBytes + limits.maxFieldBytes + FORM_OVERHEAD_BYTES;
}

function bodyTooLarge(limits: UploadLimits): AppError {
  return new AppError(
    ErrorCode.payloadTooLarge,
    413,
    `the upload is larger than the limit of ${formatMb(limits.maxFileBytes)} MB for the file ` +
      `(${formatMb(maxBodyBytes(limits))} MB for the whole form)`,
  );
}

function notStored(err: NodeJS.ErrnoException): AppError {
  const storage = asStorageError(err);
  return storage instanceof AppError ? storage : new AppError(ErrorCode.internal, 500, `the upload cannot be stored: ${err.message}`);
}

const LIMIT_ERRORS: Record<string, string> = {
  filesLimit: 'the form has too many files',
  fieldsLimit: 'the form has too many fields',
};

/**
 * Counts the body's bytes on their way into the parser and fails at the first byte over `max`.
 * A Writable, not a Transform: hyper-express pauses its request stream itself when a push meets
 * backpressure, and only a pipe that waits for a writable's 'drain' resumes it; behind a
 * Transform the upload stalled after its first chunks.
 */
function meteredInto(parser: Busboy, max: number, over: () => AppError): Writable {
  let seen = 0;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) done(over());
      else if (parser.write(chunk)) done();
      else parser.once('drain', () => done());
    },
    final(done) {
      parser.end();
      done();
    },
  });
}

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
  if (Number.isFinite(declared) && declared > maxBodyBytes(limits)) throw bodyTooLarge(limits);

  let parser: Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      // Browsers (and fetch's FormData) send a file name's UTF-8 bytes as they are; busboy reads latin1 by default.
      defParamCharset: 'utf8',
      // busboy flags a part as soon as it reaches its limit, so one byte more tells "at" from "over".
      limits: {
        fileSize: limits.maxFileBytes + 1,
        fieldSize: limits.maxFieldBytes + 1,
        files: limits.maxFiles,
        fields: limits.maxFields,
      },
    });
  } catch (err) {
    throw badRequest(`the multipart body cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const form: MultipartForm = { fields: new Map(), files: new Map() };
  try {
    await new FormReader(request, parser, form, dir, limits, fileFields).read();
  } catch (err) {
    await discardUploads(form);
    throw err;
  }
  return form;
}

/** One form being read: the body through a byte meter into busboy, file parts onto disk. */
class FormReader {
  private failure: AppError | null = null;
  private fieldBytes = 0;
  private readonly writes: Promise<void>[] = [];
  private readonly openFiles = new Set<WriteStream>();
  private readonly meter: Writable;
  private settle: ((err: AppError | null) => void) | null = null;

  constructor(
    private readonly request: Request,
    private readonly parser: Busboy,
    private readonly form: MultipartForm,
    private readonly dir: string,
    private readonly limits: UploadLimits,
    private readonly fileFields: readonly string[],
  ) {
    this.meter = meteredInto(parser, maxBodyBytes(limits), () => bodyTooLarge(limits));
  }

  read(): Promise<void> {
    const { request, parser, meter } = this;
    const done = new Promise<void>((resolve, reject) => {
      this.settle = (err) => (err ? reject(err) : resolve());
    });
    // Each of these may emit more than one error (busboy does when it is destroyed after a
    // failure): the listeners stay for the streams' whole life.
    meter.on('error', (err) => this.fail(err));
    parser.on('error', (err) => this.fail(err));
    for (const limit of Object.keys(LIMIT_ERRORS)) parser.on(limit, () => this.fail(badRequest(LIMIT_ERRORS[limit])));
    parser.on('field', (name: string, value: string, info: FieldInfo) => this.onField(name, value, info));
    parser.on('file', (name: string, stream: Readable, info: FileInfo) => this.onFile(name, stream, info));
    parser.on('finish', () => {
      void Promise.all(this.writes).then(() => this.finish());
    });
    request.pipe(meter);
    return done;
  }

  private onField(name: string, value: string, info: FieldInfo): void {
    if (this.failure) return;
    try {
      this.claim(name);
      if (this.fileFields.includes(name)) throw badRequest(`field "${name}" must be a file upload`);
      if (info.valueTruncated) throw badRequest(`field "${name}" is longer than ${this.limits.maxFieldBytes} bytes`);
      this.fieldBytes += Buffer.byteLength(value);
      if (this.fieldBytes > this.limits.maxFieldBytes)
        throw badRequest(`the text fields together are longer than ${this.limits.maxFieldBytes} bytes`);
      this.form.fields.set(name, value);
    } catch (err) {
      this.fail(err);
    }
  }

  private onFile(name: string, stream: Readable, info: FileInfo): void {
    stream.on('error', (err) => this.fail(err));
    if (this.failure) {
      stream.resume();
      return;
    }
    try {
      this.claim(name);
      if (!this.fileFields.includes(name)) throw badRequest(`field "${name}" must be text, not a file`);
    } catch (err) {
      stream.resume();
      this.fail(err);
      return;
    }
    const target = path.join(this.dir, `upload-${randomBytes(8).toString('hex')}`);
    const entry: UploadedFile = { field: name, fileName: info.filename ?? '', mimeType: info.mimeType, path: target, size: 0 };
    this.form.files.set(name, entry);
    const out = createWriteStream(target, { mode: 0o600 });
    this.openFiles.add(out);
    stream.once('limit', () => this.fail(tooLarge(this.limits.maxFileBytes)));
    this.writes.push(
      new Promise<void>((resolve) => {
        out.on('error', (err: NodeJS.ErrnoException) => this.fail(notStored(err)));
        out.on('close', () => {
          this.openFiles.delete(out);
          entry.size = out.bytesWritten;
          resolve();
        });
      }),
    );
    stream.pipe(out);
  }

  private claim(name: string): void {
    if (this.form.fields.has(name) || this.form.files.has(name)) throw badRequest(`field "${name}" is given more than once`);
  }

  private finish(): void {
    if (this.failure) return;
    // hyper-express ends the body quietly when the client goes away mid-upload.
    if (!this.request.received) this.fail(badRequest('the upload ended before the whole body arrived'));
    else this.settle?.(null);
  }

  /** The first failure wins; the body stops flowing, open files are closed, and the caller told. */
  private fail(err: unknown): void {
    if (this.failure) return;
    this.failure = this.asAppError(err);
    this.request.unpipe(this.meter);
    const failure = this.failure;
    // The failure may be raised from inside busboy's own write (a limit, a bad header): destroying
    // it there pulls its state from under the loop that is still running.
    setImmediate(() => {
      this.parser.destroy();
      const closing = [...this.openFiles].map(
        (out) =>
          new Promise<void>((resolve) => {
            out.once('close', resolve);
            out.destroy();
          }),
      );
      void Promise.all([...this.writes, ...closing]).then(() => this.settle?.(failure));
    });
  }

  private asAppError(err: unknown): AppError {
    if (err instanceof AppError) return err;
    const message = err instanceof Error ? err.message : String(err);
    if (!this.request.received && /Unexpected end of (form|file)/.test(message)) return badRequest('the upload ended before the whole body arrived');
    return badRequest(`the multipart body cannot be read: ${message}`);
  }
}

/** Removes the files of a form (after a failure, or once they have been moved or used). */
export async function discardUploads(form: MultipartForm): Promise<void> {
  await Promise.all([...form.files.values()].map((f) => rm(f.path, { force: true })));
}
