/**
 * One parsed G-code command, read the way Marlin's GCodeParser reads it: an optional line number
 * is skipped, the checksum cut off, the letter (G, M or T) and code number read, then parameters:
 * an upper-case letter, optional spaces, an optional number. A few M codes take the rest of the
 * line as a string (file names, messages). Like a default build (GCODE_CASE_INSENSITIVE off),
 * lower-case commands are unknown and lower-case letters are not parameters.
 */
const STRING_ARGUMENT_CODES = new Set([23, 28, 30, 32, 33, 117, 118, 928]);

export class GcodeCommand {
  /** The command as Marlin echoes it back (no line number, no checksum). */
  readonly text: string;
  /** 'G', 'M' or 'T'; '?' when the line is not a command Marlin knows how to read. */
  readonly letter: 'G' | 'M' | 'T' | '?';
  readonly code: number;
  /** The text argument of M23/M28/M30/M117/M118..., or null. */
  readonly stringArg: string | null;
  private readonly params = new Map<string, number | null>();

  constructor(line: string) {
    let p = line.replace(/^ +/, '');
    const lineNumber = /^N[-+]?\d+ */.exec(p);
    if (lineNumber) p = p.slice(lineNumber[0].length);
    const star = p.indexOf('*');
    this.text = (star >= 0 ? p.slice(0, star) : p).trimEnd();
    const head = /^([GMT]) *(\d+)/.exec(this.text);
    if (!head) {
      this.letter = '?';
      this.code = -1;
      this.stringArg = null;
      return;
    }
    this.letter = head[1] as 'G' | 'M' | 'T';
    this.code = Number(head[2]);
    const rest = this.text.slice(head[0].length).replace(/^ +/, '');
    this.stringArg = this.letter === 'M' && STRING_ARGUMENT_CODES.has(this.code) ? rest : null;
    if (this.stringArg === null) this.readParams(rest);
  }

  /** 'G1', 'M105', 'T' (tool changes are one handler whatever the number). */
  get key(): string {
    return this.letter === 'T' ? 'T' : `${this.letter}${this.code}`;
  }

  has(letter: string): boolean {
    return this.params.has(letter);
  }

  /** The number after a parameter letter; undefined when the letter is absent or has no number. */
  value(letter: string): number | undefined {
    const v = this.params.get(letter);
    return v === null ? undefined : v;
  }

  /** A parameter written without a number (`G28 X`) or with a non-zero one counts as true. */
  flag(letter: string): boolean {
    if (!this.params.has(letter)) return false;
    const v = this.params.get(letter);
    return v === null || v !== 0;
  }

  private readParams(text: string): void {
    const re = /([A-Z]) *([-+]?(?:\d+\.?\d*|\.\d+))?/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const letter = m[1];
      if (!this.params.has(letter)) this.params.set(letter, m[2] === undefined ? null : Number(m[2]));
    }
  }
}
