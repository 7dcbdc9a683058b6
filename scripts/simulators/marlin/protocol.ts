/**
 * Marlin's serial framing: how bytes become command lines and how a numbered line is checked.
 *
 * A host sends `N<n> <command>*<checksum>`; the checksum is the XOR of every byte before `*`.
 * Marlin wants n = last + 1 (except for M110, which sets the number), a checksum on every numbered
 * line, and answers a bad line with `Error:<reason>, Last Line: <last>`, `Resend: <last + 1>`, `ok`.
 * Text is handled as latin1 so that one character is one byte, as in the firmware.
 */

/** Longest command line Marlin keeps (MAX_CMD_SIZE); the rest of a longer line is dropped. */
export const MAX_COMMAND_LENGTH = 96;

export function checksum(text: string): number {
  let sum = 0;
  for (let k = 0; k < text.length; k++) sum ^= text.charCodeAt(k) & 0xff;
  return sum;
}

/** `N<n> <command>*<checksum>`, the way hosts send a numbered line. */
export function numberedLine(lineNumber: number, command: string): string {
  const body = `N${lineNumber} ${command}`;
  return `${body}*${checksum(body)}`;
}

export type LineError = 'line-number' | 'checksum' | 'no-checksum';

export const LINE_ERROR_TEXT: Record<LineError, string> = {
  'line-number': 'Line Number is not Last Line Number+1, Last Line: ',
  checksum: 'checksum mismatch, Last Line: ',
  'no-checksum': 'No Checksum with line number, Last Line: ',
};

export type LineCheck = { ok: true; lineNumber: number | null } | { ok: false; error: LineError };

/**
 * Checks a line the way Marlin's serial reader does. Lines that do not start with N are not
 * checked at all (`lineNumber: null`); M110 may carry any number.
 */
export function checkLine(line: string, lastLineNumber: number): LineCheck {
  const command = line.replace(/^ +/, '');
  if (!command.startsWith('N')) return { ok: true, lineNumber: null };
  const isM110 = command.includes('M110');
  let numberAt = 0;
  if (isM110) {
    const second = command.indexOf('N', 4);
    if (second >= 0) numberAt = second;
  }
  const lineNumber = leadingInteger(command.slice(numberAt + 1));
  if (lineNumber !== lastLineNumber + 1 && !isM110) return { ok: false, error: 'line-number' };
  const star = command.lastIndexOf('*');
  if (star < 0) return { ok: false, error: 'no-checksum' };
  if (leadingInteger(command.slice(star + 1)) !== checksum(command.slice(0, star))) return { ok: false, error: 'checksum' };
  return { ok: true, lineNumber };
}

/** strtol: optional spaces and sign, then digits; 0 when there are none. */
function leadingInteger(text: string): number {
  const m = /^\s*([-+]?\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
}

/** The command without its line number and checksum, as Marlin writes it to an SD file (M28). */
export function stripFraming(line: string): string {
  let text = line.trim();
  const m = /^N-?\d+ */.exec(text);
  if (m) text = text.slice(m[0].length);
  const star = text.indexOf('*');
  return (star >= 0 ? text.slice(0, star) : text).trimEnd();
}

/**
 * Splits an incoming byte stream into command lines like Marlin's stream reader: CR and LF both
 * end a line, `;` starts a comment to the end of the line, a backslash keeps the next character,
 * backspace erases, overlong lines are cut, empty lines are skipped.
 */
export class LineSplitter {
  private current = '';
  private inComment = false;
  private escaped = false;

  /** Feeds text and returns the lines it completed. */
  push(text: string): string[] {
    const lines: string[] = [];
    for (const c of text) {
      if (c === '\n' || c === '\r') {
        if (this.current.length > 0) lines.push(this.current);
        this.current = '';
        this.inComment = false;
        this.escaped = false;
      } else {
        this.take(c);
      }
    }
    return lines;
  }

  /** Whatever was received of a line not yet ended; flushing the input forgets it. */
  clear(): void {
    this.current = '';
    this.inComment = false;
    this.escaped = false;
  }

  private take(c: string): void {
    if (this.inComment) return;
    if (this.escaped) {
      this.escaped = false;
    } else if (c === '\\') {
      this.escaped = true;
      return;
    } else if (c === ';') {
      this.inComment = true;
      return;
    }
    if (c === '\b') {
      this.current = this.current.slice(0, -1);
      return;
    }
    this.current += c;
    if (this.current.length >= MAX_COMMAND_LENGTH - 1) this.inComment = true;
  }
}

/** Splits a whole text (an SD file, a G-code file) into the command lines Marlin would run. */
export function commandLines(text: string): string[] {
  const splitter = new LineSplitter();
  const lines = splitter.push(text);
  lines.push(...splitter.push('\n'));
  return lines;
}
