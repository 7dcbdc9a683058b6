/**
 * Event streams of the API (`text/event-stream` answers to a POST, which EventSource cannot send):
 * the call goes through `send` (the session's token, the API's errors), then the body is read as
 * it arrives and each `event:`/`data:` block is handed over; comments (keep-alives) are skipped.
 */
import { type CallFields, type OperationKey, send } from './client';

export interface StreamEvent {
  event: string;
  data: string;
}

/** One block of lines: its event name (default `message`) and its data lines joined. */
function parseBlock(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: data.join('\n') };
}

/** Calls `key` and hands over every event until the stream ends; resolves then. */
export async function followEvents<K extends OperationKey>(key: K, fields: CallFields<K>, onEvent: (event: StreamEvent) => void): Promise<void> {
  const response = await send(key, fields, 'text/event-stream');
  if (response.body === null) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending = (pending + value).replace(/\r\n?/g, '\n');
    let end = pending.indexOf('\n\n');
    while (end !== -1) {
      const event = parseBlock(pending.slice(0, end));
      pending = pending.slice(end + 2);
      if (event !== null) onEvent(event);
      end = pending.indexOf('\n\n');
    }
  }
  const last = parseBlock(pending);
  if (last !== null) onEvent(last);
}
