/**
 * The body copied into the final file with every progress mark (`PROGRESS_MARK`, written by the
 * formatter where the time is not known yet) replaced by its M73 line, and the commands numbered
 * (`N123 G1 …`) when the profile asks for line numbers.
 */
import { open } from 'node:fs/promises';
import type { FileSink } from './file-sink.js';
import { PROGRESS_MARK } from './formatter.js';

/** Bytes of the body read at a time when it is copied into the final file. */
const COPY_CHUNK = 1 << 20;
const MARK_BYTES = Buffer.from(PROGRESS_MARK);
const NEWLINE = 0x0a;

/**
 * Copies the body chunk by chunk. Without numbering the bytes are copied as they are, never
 * decoded into strings: a big print's body passes through in pieces of a megabyte (a new one
 * each: the sink holds on to a piece until it is written).
 */
export async function copyWithProgress(path: string, out: FileSink, m73: (tag: string) => string, lineNumbers: boolean): Promise<void> {
  let n = 0;
  const number = (text: string) => text.replace(/^(?=[^;\n])/gm, () => `N${++n} `);
  const emit = lineNumbers
    ? (bytes: Buffer) =>
        out.write(
          number(
            replaceMarks(bytes, m73)
              .map((part) => part.toString())
              .join(''),
          ),
        )
    : (bytes: Buffer) => {
        for (const part of replaceMarks(bytes, m73)) out.write(part);
      };
  const body = await open(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      const chunk = Buffer.allocUnsafe(carry.length + COPY_CHUNK);
      carry.copy(chunk);
      const { bytesRead } = await body.read(chunk, carry.length, COPY_CHUNK, null);
      if (bytesRead === 0) break;
      const bytes = chunk.subarray(0, carry.length + bytesRead);
      const cut = bytes.lastIndexOf(NEWLINE) + 1;
      carry = bytes.subarray(cut);
      emit(bytes.subarray(0, cut));
      await out.drained();
    }
    emit(carry);
  } finally {
    await body.close();
  }
}

/** The pieces of `bytes` with every progress mark line replaced by its M73 line. */
function replaceMarks(bytes: Buffer, m73: (tag: string) => string): (Buffer | string)[] {
  const parts: (Buffer | string)[] = [];
  let from = 0;
  for (let at = bytes.indexOf(MARK_BYTES); at >= 0; at = bytes.indexOf(MARK_BYTES, from)) {
    const end = bytes.indexOf(NEWLINE, at);
    const stop = end < 0 ? bytes.length : end;
    parts.push(bytes.subarray(from, at), m73(bytes.toString('latin1', at + MARK_BYTES.length, stop)));
    from = stop;
  }
  parts.push(bytes.subarray(from));
  return parts;
}
