/**
 * The virtual SD card: a flat FAT folder of G-code files kept in memory, with DOS 8.3 short names
 * next to long names (Marlin lists, opens and prints by the short name), the one file being written
 * by M28…M29, and the one file selected and printed by M23/M24 with its byte position (M27).
 */
import { LineSplitter } from './protocol.js';

export interface SdFile {
  longName: string;
  shortName: string;
  content: Buffer;
  modified: Date;
}

/** The open (selected) file. Marlin counts an open file that is not being read as paused. */
export interface SdJob {
  file: SdFile;
  /** Bytes read so far (what `SD printing byte` reports). */
  position: number;
  /** M24 set it: commands are read from the file; M25 clears it. */
  printing: boolean;
}

const SHORT_NAME = /^[A-Z0-9_~!#$%&'()@^`{}-]{1,8}(\.[A-Z0-9_~!#$%&'()@^`{}-]{1,3})?$/;

function isShortName(name: string): boolean {
  return SHORT_NAME.test(name.toUpperCase());
}

function cleanName(name: string): string {
  return name.trim().replace(/^\/+/, '');
}

export class SdCard {
  readonly longNameWrite: boolean;
  private readonly files = new Map<string, SdFile>();
  private writing: { file: SdFile; chunks: Buffer[] } | null = null;
  private current: SdJob | null = null;

  /** `longNameWrite`: files may be created under long names (LONG_FILENAME_WRITE_SUPPORT). */
  constructor(longNameWrite: boolean) {
    this.longNameWrite = longNameWrite;
  }

  list(): SdFile[] {
    return [...this.files.values()];
  }

  /** A file by its short name, or by its long name when long names can be used to open files. */
  find(name: string): SdFile | undefined {
    const wanted = cleanName(name);
    const byShort = this.files.get(wanted.toUpperCase());
    if (byShort || !this.longNameWrite) return byShort;
    return this.list().find((f) => f.longName === wanted);
  }

  /** Puts a whole file on the card (replacing one of the same name), as a PC would. */
  put(name: string, content: Buffer | string): SdFile {
    const longName = cleanName(name);
    if (longName === '' || longName.includes('/')) throw new Error(`not a file name for the SD card root: ${JSON.stringify(name)}`);
    const existing = this.list().find((f) => f.longName === longName || f.shortName === longName.toUpperCase());
    const file: SdFile = {
      longName,
      shortName: existing?.shortName ?? this.shortNameFor(longName),
      content: typeof content === 'string' ? Buffer.from(content, 'latin1') : content,
      modified: new Date(),
    };
    this.files.set(file.shortName, file);
    return file;
  }

  remove(name: string): boolean {
    const file = this.find(name);
    if (!file || file === this.current?.file || file === this.writing?.file) return false;
    return this.files.delete(file.shortName);
  }

  /** M28: creates (or truncates) a file for writing; null when the name cannot be created. */
  beginWrite(name: string): SdFile | null {
    const wanted = cleanName(name);
    if (wanted === '' || wanted.includes('/') || (!isShortName(wanted) && !this.longNameWrite)) return null;
    this.endWrite();
    const file = this.put(wanted, Buffer.alloc(0));
    this.writing = { file, chunks: [] };
    return file;
  }

  get writingFile(): SdFile | null {
    return this.writing?.file ?? null;
  }

  /** Writes one command line, ended with CR LF like Marlin's write_command. */
  writeLine(command: string): void {
    this.writing?.chunks.push(Buffer.from(`${command}\r\n`, 'latin1'));
  }

  /** M29 (or a reset): closes the file being written; its size is known from then on. */
  endWrite(): void {
    if (!this.writing) return;
    this.writing.file.content = Buffer.concat(this.writing.chunks);
    this.writing.file.modified = new Date();
    this.writing = null;
  }

  get job(): SdJob | null {
    return this.current;
  }

  /** M23: selects a file for printing (stopping any print in progress). */
  select(file: SdFile): void {
    this.current = { file, position: 0, printing: false };
  }

  /** Closes the selected file (end of print, reset, M524). */
  deselect(): void {
    this.current = null;
  }

  /**
   * The next command line of the selected file, advancing the position past it; null at the end
   * of the file. Comments and empty lines are skipped as Marlin skips them.
   */
  readCommand(): string | null {
    const job = this.current;
    if (!job) return null;
    const content = job.file.content;
    while (job.position < content.length) {
      let end = job.position;
      while (end < content.length && content[end] !== 0x0a && content[end] !== 0x0d) end++;
      const raw = content.subarray(job.position, end).toString('latin1');
      job.position = Math.min(content.length, end + 1);
      const [line] = new LineSplitter().push(`${raw}\n`);
      if (line !== undefined) return line;
    }
    return null;
  }

  private shortNameFor(longName: string): string {
    if (isShortName(longName)) return longName.toUpperCase();
    const dot = longName.lastIndexOf('.');
    const clean = (s: string) => s.toUpperCase().replace(/[^A-Z0-9_~!#$%&'()@^`{}-]/g, '');
    const base = clean(dot > 0 ? longName.slice(0, dot) : longName) || 'FILE';
    const ext = clean(dot > 0 ? longName.slice(dot + 1) : '').slice(0, 3);
    for (let n = 1; ; n++) {
      const tail = `~${n}`;
      const candidate = `${base.slice(0, 8 - tail.length)}${tail}${ext ? `.${ext}` : ''}`;
      if (!this.files.has(candidate)) return candidate;
    }
  }
}
