/**
 * Server-sent events over a hyper-express response (its own `sse` helper exists only for GET,
 * and a slice is a POST): blocks of `event:` and `data:` lines ended by a blank line, plus
 * comment lines as keep-alives so that proxies and idle timers do not cut a quiet stream.
 */
import type { Request, Response } from 'hyper-express';
import { holdOpen, releaseHold } from './long-response.js';

export interface EventStreamOptions {
  /** Interval of `: keep-alive` comments while the stream is open; 0 disables them. */
  keepAliveMs: number;
  /** Extra response headers, sent with the stream's own. */
  headers?: Record<string, string>;
}

/** One event block; multi-line data is split into several `data:` lines, as the format requires. */
export function formatEvent(event: string, data: string): string {
  if (/[\r\n]/.test(event)) throw new Error('an event name cannot contain a line break');
  return `event: ${event}\n${data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('')}\n`;
}

export function formatComment(text: string): string {
  return `${text
    .split(/\r\n|\r|\n/)
    .map((line) => `: ${line}\n`)
    .join('')}\n`;
}

export class EventStream {
  private timer: NodeJS.Timeout | null = null;
  private ended = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(
    private readonly request: Request,
    private readonly response: Response,
    private readonly options: EventStreamOptions,
  ) {}

  /** Sends the status and headers and a first comment, so the client sees the stream at once. */
  open(comment = 'open'): void {
    const r = this.response;
    r.status(200);
    r.header('content-type', 'text/event-stream', true);
    r.header('cache-control', 'no-cache, no-transform', true);
    r.header('x-accel-buffering', 'no', true);
    for (const [name, value] of Object.entries(this.options.headers ?? {})) r.header(name, value, true);
    r.once('close', () => this.finish());
    this.write(formatComment(comment));
    holdOpen(this.request);
    if (this.options.keepAliveMs > 0) {
      this.timer = setInterval(() => this.comment('keep-alive'), this.options.keepAliveMs);
      this.timer.unref();
    }
  }

  /** False once the client is gone or the stream was ended. */
  get active(): boolean {
    return !this.ended && !this.response.completed;
  }

  send(event: string, data: unknown): void {
    this.write(formatEvent(event, typeof data === 'string' ? data : JSON.stringify(data)));
  }

  comment(text: string): void {
    this.write(formatComment(text));
  }

  /** Ends the response; the client sees the stream close. */
  end(): void {
    if (this.ended) return;
    this.finish();
    if (this.response.completed) return;
    releaseHold(this.request, this.response);
    this.response.end();
  }

  /** Called once when the stream ends, by `end()` or because the client went away. */
  onClose(listener: () => void): void {
    if (this.ended) listener();
    else this.closeListeners.push(listener);
  }

  private write(text: string): void {
    if (this.active) this.response.write(text);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
