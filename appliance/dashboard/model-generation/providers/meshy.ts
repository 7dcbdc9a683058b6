/**
 * Meshy's text-to-3D API (v2), the part a print farm needs: a preview task (the untextured mesh:
 * geometry is all a printer uses), its state read until it ends, and its model file downloaded.
 *   POST {url}/openapi/v2/text-to-3d      {mode: "preview", prompt, model_type} → {result: task id}
 *   GET  {url}/openapi/v2/text-to-3d/{id} → {id, status, progress, model_urls, task_error, …}
 * Status runs PENDING → IN_PROGRESS → SUCCEEDED | FAILED (CANCELED for tasks cancelled there);
 * errors answer `{message}` with the HTTP status (401 key, 402 credits, 429 rate limit).
 * The API key goes to the API's endpoints only: the model URLs are signed links on another host.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProviderConfig } from './provider.js';

export interface MeshyTask {
  id: string;
  status: 'PENDING' | 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';
  /** 0 to 100. */
  progress: number;
  model_urls?: Partial<Record<string, string>>;
  task_error?: { message?: string } | null;
}

export interface PreviewRequest {
  prompt: string;
  model_type: 'standard' | 'lowpoly';
}

/** The largest model file taken from a provider (the mesh tools' upload cap). */
export const MAX_MODEL_BYTES = 50 * 1024 * 1024;
/** Reads of a task's state that may fail in a row (429, 5xx, a dropped connection) before the job fails. */
const POLL_RETRIES = 3;
const STATUSES = new Set(['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'CANCELED']);

/** The provider's own words, when its error body is `{message}`; cut short. */
async function providerMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let message = text;
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // Not JSON: the raw text says what there is to say.
  }
  message = message.replace(/\s+/g, ' ').trim().slice(0, 200);
  return message === '' ? '' : `: ${message}`;
}

/** A clear sentence for an HTTP error of the provider, by what it means for the user. */
async function httpError(response: Response, what: string): Promise<Error> {
  const said = await providerMessage(response);
  const status = response.status;
  if (status === 401 || status === 403) return new Error(`the text-to-3D provider refused the API key (HTTP ${status}) ${what}${said}`);
  if (status === 402) return new Error(`the text-to-3D provider account has no credits left (HTTP 402) ${what}${said}`);
  if (status === 429) return new Error(`the text-to-3D provider is limiting requests (HTTP 429) ${what}; try again later${said}`);
  if (status === 404) return new Error(`the text-to-3D provider does not know this address (HTTP 404) ${what}; check its base URL${said}`);
  if (status >= 500) return new Error(`the text-to-3D provider failed (HTTP ${status}) ${what}${said}`);
  return new Error(`the text-to-3D provider refused the request (HTTP ${status}) ${what}${said}`);
}

function retryable(err: unknown, response: Response | null): boolean {
  if (response) return response.status === 429 || response.status >= 500;
  return !(err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'));
}

export class MeshyClient {
  constructor(
    private readonly config: ProviderConfig,
    /** Ends every request and wait when the job's time with the provider is over. */
    private readonly signal: AbortSignal,
  ) {}

  private get headers(): Record<string, string> {
    return { authorization: `Bearer ${this.config.apiKey}`, accept: 'application/json' };
  }

  private async send(path: string, init: RequestInit, what: string): Promise<Response> {
    try {
      return await fetch(`${this.config.url}${path}`, { ...init, signal: this.signal });
    } catch (err) {
      throw this.unreachable(err, what);
    }
  }

  private unreachable(err: unknown, what: string): Error {
    if (this.signal.aborted) return this.timedOut();
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return new Error(
      `the text-to-3D provider at ${this.config.url} cannot be reached ${what}: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
    );
  }

  timedOut(): Error {
    return new Error(`the text-to-3D provider did not deliver the model within ${Math.round(this.config.timeoutMs / 1000)} s`);
  }

  /** Creates the preview task; returns its id. */
  async createPreview(request: PreviewRequest): Promise<string> {
    const what = 'when asked for a model';
    const response = await this.send(
      '/openapi/v2/text-to-3d',
      {
        method: 'POST',
        headers: { ...this.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'preview', prompt: request.prompt, model_type: request.model_type }),
      },
      what,
    );
    if (!response.ok) throw await httpError(response, what);
    const body = (await response.json().catch(() => null)) as { result?: unknown } | null;
    if (typeof body?.result !== 'string' || body.result === '') throw new Error('the text-to-3D provider answered a new task without its id');
    return body.result;
  }

  async task(id: string): Promise<MeshyTask> {
    const what = 'when asked for the state of its task';
    const response = await this.send(`/openapi/v2/text-to-3d/${encodeURIComponent(id)}`, { headers: this.headers }, what);
    if (!response.ok) throw Object.assign(await httpError(response, what), { response });
    const task = (await response.json().catch(() => null)) as MeshyTask | null;
    if (!task || !STATUSES.has(task.status)) throw new Error(`the text-to-3D provider answered the state of task ${id} in an unknown shape`);
    return task;
  }

  /** Reads the task until it ends (SUCCEEDED, FAILED or CANCELED), reporting its progress (0 to 1). */
  async finished(id: string, progress: (fraction: number) => void): Promise<MeshyTask> {
    let failures = 0;
    for (;;) {
      let task: MeshyTask;
      try {
        task = await this.task(id);
        failures = 0;
      } catch (err) {
        const response = (err as { response?: Response }).response ?? null;
        if (this.signal.aborted || !retryable(err, response) || ++failures > POLL_RETRIES) throw err;
        await this.wait();
        continue;
      }
      if (task.status === 'SUCCEEDED' || task.status === 'FAILED' || task.status === 'CANCELED') return task;
      progress(Math.max(0, Math.min(100, Number(task.progress) || 0)) / 100);
      await this.wait();
    }
  }

  private async wait(): Promise<void> {
    try {
      await sleep(this.config.pollIntervalMs, undefined, { signal: this.signal });
    } catch {
      throw this.timedOut();
    }
  }

  /** The model file at a signed link (no API key sent), at most MAX_MODEL_BYTES. */
  async download(url: string): Promise<Uint8Array> {
    const what = 'when the model was downloaded';
    let response: Response;
    try {
      response = await fetch(url, { signal: this.signal });
    } catch (err) {
      throw this.unreachable(err, what);
    }
    if (!response.ok || !response.body) throw await httpError(response, what);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_MODEL_BYTES) throw new Error(`the provider's model file is ${declared} bytes, more than the ${MAX_MODEL_BYTES} the box takes`);
    const parts: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const part of response.body) {
        size += part.byteLength;
        if (size > MAX_MODEL_BYTES) throw new Error(`the provider's model file is more than the ${MAX_MODEL_BYTES} bytes the box takes`);
        parts.push(part);
      }
    } catch (err) {
      if (this.signal.aborted) throw this.timedOut();
      throw err;
    }
    return Buffer.concat(parts);
  }
}
