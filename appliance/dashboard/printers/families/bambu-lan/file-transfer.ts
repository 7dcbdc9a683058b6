/**
 * Files to and from a Bambu printer's storage over implicit FTPS (ftps-client.ts), trusted the
 * same way as its MQTT (tls-trust.ts): the control connection is checked, and every data
 * connection resumes its TLS session. Files go to the card's root, where `project_file`'s
 * `ftp://<name>` finds them.
 *
 * An upload reads a project's filament list (project-filaments.ts) from the bytes as they pass,
 * so the start can map filaments to this printer's trays without reading the file again; for a
 * file put there by someone else, `readProjectFilaments` streams it back once.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, Writable, type Readable } from 'node:stream';
import type tls from 'node:tls';
import { AppError, ErrorCode } from '../../../../common/errors.js';
import { PermanentConnectError, type UploadProgress, type UploadSource } from '../../driver.js';
import { FtpsConnection, FtpsError } from './ftps-client.js';
import type { CertificatePins } from './pin-store.js';
import { ProjectFilamentReader, type ProjectFilaments } from './project-filaments.js';
import { openTrustedSocket } from './tls-trust.js';

export interface TransferTarget {
  host: string;
  port: number;
  serial: string;
  printerId: string;
  accessCode: string;
  ca: string | null;
  pins: CertificatePins;
  timeoutMs: number;
}

const FTP_USER = 'bblp';

function isProject(name: string): boolean {
  return /\.3mf$/i.test(name);
}

/** Why a transfer failed, as the API should say it: trust problems are settings (409), the rest the printer (503). */
function transferError(what: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof PermanentConnectError) return new AppError(ErrorCode.conflict, 409, `${what}: ${message}`);
  return new AppError(ErrorCode.unavailable, 503, `${what}: ${message}`);
}

async function session<T>(target: TransferTarget, work: (ftp: FtpsConnection) => Promise<T>): Promise<T> {
  const trust = {
    host: target.host,
    serial: target.serial,
    printerId: target.printerId,
    ca: target.ca,
    pins: target.pins,
    service: 'ftps' as const,
    timeoutMs: target.timeoutMs,
  };
  const control = await openTrustedSocket({ ...trust, port: target.port });
  const { connection, greeting } = await FtpsConnection.open(control, {
    timeoutMs: target.timeoutMs,
    openData: (port: number, resumed: Buffer | undefined): Promise<tls.TLSSocket> =>
      openTrustedSocket({ ...trust, port, ...(resumed ? { session: resumed } : {}) }),
  });
  try {
    if (greeting.code !== 220) throw new FtpsError(`unexpected greeting ${greeting.code} ${greeting.text}`, greeting);
    await connection.login(FTP_USER, target.accessCode);
    const result = await work(connection);
    await connection.quit();
    return result;
  } catch (err) {
    connection.destroy();
    throw err;
  }
}

async function openSource(source: UploadSource): Promise<{ stream: Readable; size: number | null }> {
  if ('path' in source) {
    const info = await stat(source.path).catch((err: Error) => {
      throw new AppError(ErrorCode.validation, 400, `cannot read ${source.path}: ${err.message}`);
    });
    return { stream: createReadStream(source.path), size: info.size };
  }
  return { stream: source.stream, size: source.size ?? null };
}

/**
 * Stores the file as `remoteName`; returns the filaments it asks for when it is a project
 * (null when it names none or is not a project).
 */
export async function uploadFile(
  target: TransferTarget,
  source: UploadSource,
  remoteName: string,
  onProgress?: (progress: UploadProgress) => void,
): Promise<ProjectFilaments | null> {
  const { stream, size } = await openSource(source);
  const reader = isProject(remoteName) ? new ProjectFilamentReader() : null;
  let sent = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      reader?.push(chunk);
      onProgress?.({ sent_bytes: sent, total_bytes: size });
      done(null, chunk);
    },
  });
  stream.once('error', (err) => counted.destroy(err));
  stream.pipe(counted);
  try {
    await session(target, (ftp) => ftp.store(remoteName, counted));
  } catch (err) {
    stream.destroy();
    throw transferError(`uploading ${remoteName} to printer ${target.serial} failed`, err);
  }
  return reader?.result() ?? null;
}

/** Streams a project back from the printer to read its filament list; null when it has none. */
export async function readProjectFilaments(target: TransferTarget, remoteName: string): Promise<ProjectFilaments | null> {
  const reader = new ProjectFilamentReader();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      reader.push(chunk);
      done();
    },
  });
  try {
    await session(target, async (ftp) => {
      const reply = await ftp.transfer(`RETR ${remoteName}`, (data) => pipeTo(data, sink));
      if (reply.code === 550) throw new AppError(ErrorCode.notFound, 404, `the printer has no file ${remoteName}`);
      if (reply.code !== 226) throw new FtpsError(`reading ${remoteName} failed: ${reply.code} ${reply.text}`, reply);
    });
  } catch (err) {
    throw transferError(`reading ${remoteName} from printer ${target.serial} failed`, err);
  }
  return reader.result();
}

function pipeTo(data: Readable, sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    data.once('error', reject);
    sink.once('error', reject);
    sink.once('finish', () => resolve());
    data.pipe(sink);
  });
}
