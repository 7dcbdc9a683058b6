/**
 * HTTP client of the slicer service (`../shared/spec/slicer-service.md`), over Node's fetch.
 * Base URL and token are read from the settings on every call, so a configure takes effect at
 * once; the token goes out as `Authorization: Bearer` on every request when one is set.
 *
 * Every call has a deadline for the response headers (the body of a stream or a download may
 * then take as long as it needs; event streams have their own idle watchdog). Failures come out
 * typed (errors.ts): unreachable, timed out, 501 or a refused token → RemoteUnavailableError;
 * an answer about the request → AppError with the service's status, code and message (cleaned
 * of the token: redact.ts). Redirects are not followed: the token goes to the configured origin
 * and nowhere else, and a URL carrying a user name or password is not used at all.
 * The compatibility check lives with the probe (probe.ts), which caches it.
 */
import { openAsBlob } from 'node:fs';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { HeightChange } from '../../../slicer/index.js';
import { displayUrl, hasCredentials } from './address.js';
import { cleanText } from './redact.js';
import { connectionProblem, RemoteUnavailableError, UNREACHABLE, upstreamError } from './errors.js';

export interface RemoteEndpoint {
  url: string;
  token: string;
}

export interface RemoteTimeouts {
  /** Probes (`/api/version` and the token check). */
  probeMs: number;
  /** Until the response headers of any other call (a slice's stream opens at once). */
  headersMs: number;
}

export const DEFAULT_TIMEOUTS: RemoteTimeouts = { probeMs: 5_000, headersMs: 30_000 };

export interface CallOptions {
  /** Names the call in error messages: "the profile list", "slicing". */
  what: string;
  method?: 'GET' | 'POST';
  query?: Record<string, string | undefined>;
  body?: FormData;
  accept?: string;
  /** Deadline for the response headers; default `headersMs`. */
  timeoutMs?: number;
  /** Aborts the call, including reading the body afterwards. */
  signal?: AbortSignal;
}

/** GET /api/version. */
export interface VersionInfo {
  version: string;
  api: number;
  upstream?: string;
}

/** GET /api/health. */
export interface HealthInfo {
  ok: boolean;
  service?: string;
  version?: string;
  upstream?: string;
  config_dir?: string;
}

/** A row of GET /api/profiles (the fields the dashboard relies on; the service sends more). */
export interface RemoteProfile {
  id: string;
  kind: 'printer' | 'filament' | 'process';
  name: string;
  vendor?: string;
  settings?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The form of POST /api/slice, with the model as a file on disk. */
export interface SliceUpload {
  modelPath: string;
  modelName: string;
  printerId: string;
  filamentIds: string[];
  processId: string;
  overrides: Record<string, unknown> | null;
  heightChanges?: HeightChange[];
}

export class RemoteSlicerClient {
  constructor(
    private readonly endpoint: () => RemoteEndpoint,
    readonly timeouts: RemoteTimeouts = DEFAULT_TIMEOUTS,
  ) {}

  get baseUrl(): string {
    return this.endpoint().url;
  }

  /**
   * Sends a request and returns the response once its headers are in, if it is a success;
   * otherwise reads the error body and throws what it means. The body is the caller's to read
   * or cancel.
   */
  async open(path: string, options: CallOptions): Promise<Response> {
    const { url, token } = this.endpoint();
    const shown = displayUrl(url);
    if (hasCredentials(url)) {
      throw new RemoteUnavailableError(
        'the slicer service URL carries a user name or password, which the dashboard does not send; give the token in slicer_service.token',
      );
    }
    const target = new URL(url.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) target.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
    if (token !== '') headers.authorization = `Bearer ${token}`;

    const deadline = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    const timeoutMs = options.timeoutMs ?? this.timeouts.headersMs;
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    let response: Response;
    try {
      response = await fetch(target, { method: options.method ?? 'GET', headers, body: options.body, signal, redirect: 'manual' });
    } catch (err) {
      if (options.signal?.aborted) throw cancelled(options.what);
      if (deadline.signal.aborted)
        throw new RemoteUnavailableError(UNREACHABLE, `the slicer service at ${shown} did not answer ${options.what} within ${timeoutMs / 1000} s`);
      throw new RemoteUnavailableError(UNREACHABLE, `cannot reach the slicer service at ${shown}: ${connectionProblem(err)}`);
    } finally {
      clearTimeout(timer);
    }
    // The caller's signal still aborts reading the body.
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    throw upstreamError(options.what, response.status, text, [token]);
  }

  /** Text the service wrote, fit to show: the token and credential-like parts masked. */
  clean(text: string): string {
    return cleanText(text, [this.endpoint().token]);
  }

  /** A JSON answer; a body that is not JSON means the service is not what we think it is. */
  async json<T>(path: string, options: CallOptions): Promise<T> {
    const response = await this.open(path, options);
    const text = await response.text().catch((err: unknown) => {
      if (options.signal?.aborted) throw cancelled(options.what);
      throw new RemoteUnavailableError(UNREACHABLE, `the slicer service's answer to ${options.what} broke off: ${connectionProblem(err)}`);
    });
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new RemoteUnavailableError(UNREACHABLE, `the slicer service answered ${options.what} with something that is not JSON`);
    }
  }

  version(): Promise<VersionInfo> {
    return this.json('/api/version', { what: 'the version check', timeoutMs: this.timeouts.probeMs });
  }

  health(): Promise<HealthInfo> {
    return this.json('/api/health', { what: 'the health check', timeoutMs: this.timeouts.probeMs });
  }

  /** An authenticated call that costs the service nothing: a filter that matches no vendor. */
  async checkToken(): Promise<void> {
    await this.json('/api/profiles', {
      what: 'the token check',
      query: { kind: 'printer', vendor: 'printyard-dashboard-token-check' },
      timeoutMs: this.timeouts.probeMs,
    });
  }

  async profiles(query: { kind?: string; vendor?: string }, signal?: AbortSignal): Promise<RemoteProfile[]> {
    const body = await this.json<{ profiles?: unknown }>('/api/profiles', { what: 'the profile list', query, ...(signal ? { signal } : {}) });
    if (!Array.isArray(body.profiles)) throw new RemoteUnavailableError('the slicer service answered the profile list without a "profiles" array');
    return body.profiles as RemoteProfile[];
  }

  profile(id: string, signal?: AbortSignal): Promise<RemoteProfile> {
    return this.json(`/api/profiles/${encodeURIComponent(id)}`, { what: `profile "${id}"`, ...(signal ? { signal } : {}) });
  }

  jobs(): Promise<unknown> {
    return this.json('/api/jobs', { what: 'the job list' });
  }

  cancelJob(id: string): Promise<unknown> {
    return this.json(`/api/jobs/${encodeURIComponent(id)}/cancel`, { what: `cancelling job ${id}`, method: 'POST' });
  }

  /** A finished job's file: `gcode` or `preview.png`. */
  jobFile(id: string, file: 'gcode' | 'preview.png', signal?: AbortSignal): Promise<Response> {
    const what = file === 'gcode' ? `the G-code of job ${id}` : `the preview of job ${id}`;
    return this.open(`/api/jobs/${encodeURIComponent(id)}/${file}`, { what, accept: '*/*', ...(signal ? { signal } : {}) });
  }

  /** POST /api/slice; `accept` picks the event stream or the buffered JSON reply. */
  async slice(upload: SliceUpload, accept: 'text/event-stream' | 'application/json', signal: AbortSignal): Promise<Response> {
    const form = new FormData();
    form.append('model', await openAsBlob(upload.modelPath), upload.modelName);
    form.append('printer_id', upload.printerId);
    form.append('filament_ids', JSON.stringify(upload.filamentIds));
    form.append('process_id', upload.processId);
    if (upload.overrides !== null) form.append('overrides', JSON.stringify(upload.overrides));
    if (upload.heightChanges?.length) form.append('height_changes', JSON.stringify(upload.heightChanges));
    return this.open('/api/slice', { what: 'slicing', method: 'POST', body: form, accept, signal });
  }
}

function cancelled(what: string): AppError {
  return new AppError(ErrorCode.cancelled, 409, `${what} was cancelled`);
}
