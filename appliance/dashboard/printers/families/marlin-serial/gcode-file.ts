/**
 * A G-code file read for host printing: line by line with the byte offset where each line ends
 * (progress is bytes acknowledged / file size), comments and blank lines dropped (framing.ts),
 * and the layer-change comments slicers write (`;LAYER_CHANGE` from PrusaSlicer, OrcaSlicer and
 * our engine, `;LAYER:<n>` from Cura) counted, so progress can say which layer runs.
 *
 * Reading is pulled in chunks as the printer takes lines, so a file of any size costs a chunk of
 * memory. `scanGcodeFile` reads a file once before the print for its totals.
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { cleanCommand } from './framing.js';

const CHUNK_BYTES = 64 * 1024;
const LAYER_MARK = /^\s*;\s*(LAYER_CHANGE\b|LAYER:\s*-?\d)/;

export interface GcodeLine {
  command: string;
  /** Byte offset just past this line in the file. */
  end: number;
  /** Layer changes passed before this command, counted from the start of the file. */
  layers: number;
}

export interface GcodeTotals {
  bytes: number;
  /** Commands that will be sent. */
  lines: number;
  /** Layer changes marked in the file; null when it marks none. */
  layers: number | null;
}

/** Skips what is not sent: comments, blanks, and M110 (the host owns the line numbers). */
function commandOf(text: string): string | null {
  const command = cleanCommand(text);
  if (command === '' || /^M110(?!\d)/.test(command)) return null;
  return command;
}

export class GcodeReader {
  private readonly buffer = Buffer.alloc(CHUNK_BYTES);
  private rest = '';
  private position = 0;
  /** Byte offset in the file where `rest` begins. */
  private consumed = 0;
  private layers = 0;
  private eof = false;
  /** Commands of the last chunk, and how many of them were handed out. */
  private pending: GcodeLine[] = [];
  private taken = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async open(path: string): Promise<GcodeReader> {
    return new GcodeReader(await open(path, 'r'));
  }

  /** The next command, or null at the end of the file. */
  async next(): Promise<GcodeLine | null> {
    while (this.taken >= this.pending.length) {
      if (this.eof) return null;
      this.pending = [];
      this.taken = 0;
      await this.readChunk();
    }
    return this.pending[this.taken++];
  }

  /** Layer changes read so far (all of them once `next()` returned null). */
  get layersSeen(): number {
    return this.layers;
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  private async readChunk(): Promise<void> {
    const { bytesRead } = await this.handle.read(this.buffer, 0, CHUNK_BYTES, this.position);
    this.position += bytesRead;
    if (bytesRead === 0) {
      this.eof = true;
      if (this.rest !== '') this.take(this.rest, this.consumed + this.rest.length);
      this.rest = '';
      return;
    }
    // latin1 keeps one character per byte, so string offsets are byte offsets.
    const text = this.rest + this.buffer.toString('latin1', 0, bytesRead);
    const origin = this.consumed;
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      this.take(text.slice(start, newline), origin + newline + 1);
      start = newline + 1;
    }
    this.consumed = origin + start;
    this.rest = text.slice(start);
  }

  private take(text: string, end: number): void {
    if (LAYER_MARK.test(text)) {
      this.layers++;
      return;
    }
    const command = commandOf(text);
    if (command !== null) this.pending.push({ command, end, layers: this.layers });
  }
}

export async function scanGcodeFile(path: string): Promise<GcodeTotals> {
  const { size } = await stat(path);
  const reader = await GcodeReader.open(path);
  let lines = 0;
  try {
    while ((await reader.next()) !== null) lines++;
  } finally {
    await reader.close();
  }
  return { bytes: size, lines, layers: reader.layersSeen > 0 ? reader.layersSeen : null };
}
