/**
 * Reads a text/event-stream (the slicer service's, or any in a test) as a browser's EventSource
 * would (WHATWG HTML, "Server-sent events"): UTF-8 with an optional BOM, lines ended by CRLF, LF or CR, `data` lines joined
 * with LF, `event` naming the type (default `message`), a blank line dispatching, an event without
 * data dropped, and an unfinished block at the end of the stream dropped. Comments (keep-alives)
 * are reported separately so a watchdog can count them as signs of life.
 */
export interface UpstreamEvent {
  type: string;
  /** The data exactly as sent (lines joined with LF), so a relay can pass it on unchanged. */
  data: string;
}

export interface SseHandlers {
  event(event: UpstreamEvent): void;
  comment?(text: string): void;
}

export class SseReader {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private started = false;
  private pendingCr = false;
  private dataLines: string[] | null = null;
  private eventType = '';

  constructor(private readonly handlers: SseHandlers) {}

  push(chunk: Uint8Array): void {
    this.text(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended: flushes the decoder; an unfinished block is dropped, as EventSource does. */
  end(): void {
    this.text(this.decoder.decode());
  }

  private text(text: string): void {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (match === null) return;
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) this.pendingCr = true;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) {
      this.handlers.comment?.(line.slice(1).replace(/^ /, ''));
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.eventType = value;
    else if (field === 'data') {
      this.dataLines ??= [];
      this.dataLines.push(value);
    }
  }

  private dispatch(): void {
    const lines = this.dataLines;
    const type = this.eventType || 'message';
    this.dataLines = null;
    this.eventType = '';
    if (lines !== null) this.handlers.event({ type, data: lines.join('\n') });
  }
}
